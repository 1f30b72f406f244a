package runner

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
	"benchpress/internal/target"
)

func TestFatalErrorStopsRun(t *testing.T) {
	wl := &fakeWL{service: time.Millisecond, failEvery: 20,
		failErr: fmt.Errorf("new_order: prepare select: %w", &mysql.MySQLError{Number: 1461, Message: "Can't create more than max_prepared_stmt_count statements (current value: 16382)"})}
	start := time.Now()
	res, err := Run(context.Background(), Config{Terminals: 4, Duration: 20 * time.Second}, wl, &fakeDialer{})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("run went on for %s after a fatal error", took)
	}
	if res.Fatal == nil || !strings.Contains(res.Fatal.Error(), "max_prepared_stmt_count") {
		t.Fatalf("Fatal = %v, want the 1461 error", res.Fatal)
	}
	if len(res.ErrorSamples) == 0 {
		t.Fatal("no error sample kept")
	}
	s := res.ErrorSamples[0]
	if s.Class != "resource_limit" || s.Code != "1461" || s.Op != "op" || !strings.Contains(s.Message, "prepare select") {
		t.Fatalf("sample = %+v", s)
	}
}

func TestErrorSamplesDistinctAndBounded(t *testing.T) {
	e := newErrorSamples([]string{"a", "b"})
	for i := 0; i < 50; i++ {
		e.add(metrics.Measure, 0, 6, fmt.Errorf("message %d", i%(SamplesPerClass+3)))
	}
	e.add(metrics.Measure, 1, 6, fmt.Errorf("message 0"))
	got := e.list()
	if len(got) != SamplesPerClass {
		t.Fatalf("kept %d samples, want %d", len(got), SamplesPerClass)
	}
	var total int64
	for _, s := range got {
		total += s.Count
		if s.Phase != results.PhaseWindow {
			t.Fatalf("phase %q, want %q", s.Phase, results.PhaseWindow)
		}
	}
	if got[0].Message != "message 0" || got[0].Count < 6 || total >= 50 {
		t.Fatalf("samples = %+v", got)
	}
}

// A warm-up that fills its class's table leaves the window its own room,
// and the same message in both phases is two samples, each with its count.
func TestErrorSamplesKeepTheirPhase(t *testing.T) {
	e := newErrorSamples([]string{"a"})
	for i := 0; i < 3*SamplesPerClass; i++ {
		e.add(metrics.Warmup, 0, target.ClassLostConnection, fmt.Errorf("warm %d", i))
	}
	e.add(metrics.Measure, 0, target.ClassLostConnection, fmt.Errorf("warm 0"))
	e.add(metrics.Measure, 0, target.ClassLostConnection, fmt.Errorf("window"))
	e.add(metrics.Done, 0, target.ClassLostConnection, fmt.Errorf("window"))
	count := map[string]int64{}
	for _, s := range e.list() {
		count[s.Phase+"/"+s.Message] += s.Count
	}
	want := map[string]int64{"window/warm 0": 1, "window/window": 2}
	for i := 0; i < SamplesPerClass; i++ {
		want[fmt.Sprintf("warmup/warm %d", i)] = 1
	}
	if fmt.Sprint(count) != fmt.Sprint(want) {
		t.Fatalf("samples %v, want %v", count, want)
	}
}

// The series has no interval shorter than minTick, and its intervals are
// contiguous: a short tick (a phase edge, the drain of transactions that
// take 100 ms) is folded into the interval before it with its length, so
// no interval holds counts without the time they took.
func TestSeriesHasNoShortIntervals(t *testing.T) {
	for _, service := range []time.Duration{time.Millisecond, 100 * time.Millisecond} {
		wl := &fakeWL{service: service}
		res, err := Run(context.Background(), Config{Terminals: 2, Warmup: time.Second, Duration: 2 * time.Second}, wl, &fakeDialer{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Series) < 3 {
			t.Fatalf("service %v: series has %d ticks", service, len(res.Series))
		}
		prev := 0.0
		for i, tk := range res.Series {
			if tk.Dur < minTick.Seconds() || tk.T-prev < minTick.Seconds() {
				t.Fatalf("service %v: tick %d covers %.3f s (T %.3f after %.3f)", service, i, tk.Dur, tk.T, prev)
			}
			if gap := tk.T - tk.Dur - prev; gap > 1e-6 || gap < -1e-6 {
				t.Fatalf("service %v: tick %d starts %.6f s after the one before ended (T %.3f, Dur %.3f, previous T %.3f)", service, i, gap, tk.T, tk.Dur, prev)
			}
			var n int64
			for _, o := range tk.Ops {
				n += o.Count
			}
			if n == 0 {
				t.Fatalf("service %v: tick %d has no completions: %+v", service, i, res.Series)
			}
			prev = tk.T
		}
		// The drain after the window (the transactions in flight, folded
		// with its length) ends the last interval: it ends after the window.
		last := res.Series[len(res.Series)-1]
		if end := res.MeasureTo.Sub(res.Started).Seconds(); !last.Measured || last.T < end {
			t.Fatalf("service %v: the last interval ends at %.3f s (measured %v), the window at %.3f s: the drain's length is lost", service, last.T, last.Measured, end)
		}
	}
}

func TestOpenLoopCountsLateAndDropped(t *testing.T) {
	// 2 terminals at 5 ms per op can do ~400/s; ask for 2000/s.
	wl := &fakeWL{service: 5 * time.Millisecond}
	for _, poisson := range []bool{false, true} {
		res, err := Run(context.Background(), Config{Terminals: 2, Duration: time.Second, Rate: 2000, Poisson: poisson, Seed: 1}, wl, &fakeDialer{})
		if err != nil {
			t.Fatal(err)
		}
		if res.StartedOps == 0 || res.StartedOps > 800 {
			t.Fatalf("poisson %v: started %d", poisson, res.StartedOps)
		}
		if res.Late < res.StartedOps/2 || res.Dropped < 1000 {
			t.Fatalf("poisson %v: late %d, dropped %d of %d started", poisson, res.Late, res.Dropped, res.StartedOps)
		}
	}
}

// A folded short tick brings its length with its counts: the interval
// ends where the short tick ended, and its rate is counts over both.
func TestFoldTickKeepsCountsWithTheirTime(t *testing.T) {
	tests := []struct {
		name            string
		t, dur          float64
		count, errs     int64
		wantT, wantDur  float64
		wantN, wantErrs int64
	}{
		{"drain of in-flight transactions", 5.13, 0.13, 1000, 2, 5.13, 1.13, 9000, 3},
		{"empty phase edge", 5.01, 0.01, 0, 0, 5.01, 1.01, 8000, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prev := Tick{T: 5, Dur: 1, Measured: true, Ops: []TickOp{{Count: 8000, Errors: 1, AvgMS: 2}}}
			foldTick(&prev, []TickOp{{Count: tc.count, Errors: tc.errs, AvgMS: 9}}, tc.t, tc.dur)
			if math.Abs(prev.T-tc.wantT) > 1e-9 || math.Abs(prev.Dur-tc.wantDur) > 1e-9 || prev.Ops[0].Count != tc.wantN || prev.Ops[0].Errors != tc.wantErrs || prev.Ops[0].AvgMS != 2 {
				t.Fatalf("folded %+v, want T %.2f Dur %.2f count %d errors %d (latency kept)", prev, tc.wantT, tc.wantDur, tc.wantN, tc.wantErrs)
			}
		})
	}
}
