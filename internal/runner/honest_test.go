package runner

import (
	"context"
	"fmt"
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

func TestSeriesHasNoShortIntervals(t *testing.T) {
	wl := &fakeWL{service: time.Millisecond}
	res, err := Run(context.Background(), Config{Terminals: 2, Warmup: time.Second, Duration: 2 * time.Second}, wl, &fakeDialer{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Series) < 3 {
		t.Fatalf("series has %d ticks", len(res.Series))
	}
	prev := 0.0
	for i, tk := range res.Series {
		if tk.Dur < minTick.Seconds() || tk.T-prev < minTick.Seconds() {
			t.Fatalf("tick %d covers %.3f s (T %.3f after %.3f)", i, tk.Dur, tk.T, prev)
		}
		var n int64
		for _, o := range tk.Ops {
			n += o.Count
		}
		if n == 0 {
			t.Fatalf("tick %d has no completions: %+v", i, res.Series)
		}
		prev = tk.T
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
