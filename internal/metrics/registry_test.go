package metrics

import (
	"sync"
	"testing"
	"time"

	"benchpress/internal/errclass"
)

func TestPhaseTagging(t *testing.T) {
	tests := []struct {
		name      string
		phase     Phase
		wantCum   int64
		wantTicks int64
	}{
		{"warm-up feeds the series only", Warmup, 0, 1},
		{"measure feeds both", Measure, 1, 1},
		{"done is dropped", Done, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry([]string{"a"}, nil, 1)
			r.Recorder(0).RecordIn(tc.phase, 0, time.Millisecond, OK, errclass.None, nil)
			iv := r.Tick()
			if got := iv.Counts[0].OK; got != tc.wantTicks {
				t.Errorf("interval count %d, want %d", got, tc.wantTicks)
			}
			if got := r.Cumulative().Counts[0].OK; got != tc.wantCum {
				t.Errorf("cumulative count %d, want %d", got, tc.wantCum)
			}
		})
	}
}

func TestOutcomesAndExtras(t *testing.T) {
	r := NewRegistry([]string{"a", "b"}, []string{"x"}, 4)
	r.SetPhase(Measure)
	ex := []int64{3}
	rec := r.Recorder(1)
	rec.Record(0, 2*time.Millisecond, OK, errclass.None, ex)
	if ex[0] != 0 {
		t.Fatalf("extras not zeroed: %v", ex)
	}
	rec.Record(0, 3*time.Millisecond, Rollback, errclass.None, nil)
	rec.Record(1, time.Millisecond, Failed, errclass.Deadlock, nil)
	rec.AddRetry(1)
	r.Tick()
	c := r.Cumulative()
	if c.Counts[0].OK != 1 || c.Counts[0].Rollback != 1 || c.OKHist[0].TotalCount() != 2 {
		t.Errorf("op a: %+v", c.Counts[0])
	}
	if c.Counts[1].Errs[errclass.Deadlock] != 1 || c.Counts[1].Retries != 1 || c.ErrHist[1].TotalCount() != 1 || c.OKHist[1] != nil {
		t.Errorf("op b: %+v", c.Counts[1])
	}
	if c.Extra[0] != 3 {
		t.Errorf("extra %d, want 3", c.Extra[0])
	}
}

func TestConcurrentRecordersMergeExactly(t *testing.T) {
	const workers, each = 16, 5000
	r := NewRegistry([]string{"a"}, nil, workers)
	r.SetPhase(Measure)
	var wg sync.WaitGroup
	stop, tickerDone := make(chan struct{}), make(chan struct{})
	go func() { // ticker running concurrently with recording
		defer close(tickerDone)
		for {
			select {
			case <-stop:
				return
			default:
				r.Tick()
			}
		}
	}()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rec := r.Recorder(w)
			for i := 0; i < each; i++ {
				rec.Record(0, time.Duration(i)*time.Microsecond, OK, errclass.None, nil)
			}
		}(w)
	}
	wg.Wait()
	close(stop)
	<-tickerDone // Tick is single-goroutine by contract
	r.Tick()
	if got := r.Cumulative().Counts[0].OK; got != workers*each {
		t.Fatalf("merged %d, want %d", got, workers*each)
	}
}

func TestLatencyClamped(t *testing.T) {
	h := NewHistogram()
	recordUS(h, 0)
	recordUS(h, 2*time.Hour)
	if h.Min() < minLatencyUS || h.Max() < maxLatencyUS*99/100 {
		t.Fatalf("min %d max %d", h.Min(), h.Max())
	}
}

// TestPerRecorder: each recorder's measured attempts (OK, rollbacks and
// failures; not retries, not warm-up) are counted across ticks, and the
// copy returned is the caller's.
func TestPerRecorder(t *testing.T) {
	r := NewRegistry([]string{"a"}, nil, 3)
	r.Recorder(0).RecordIn(Warmup, 0, time.Millisecond, OK, errclass.None, nil)
	r.Tick()
	r.SetPhase(Measure)
	r.Recorder(0).Record(0, time.Millisecond, OK, errclass.None, nil)
	r.Recorder(0).Record(0, time.Millisecond, Rollback, errclass.None, nil)
	r.Recorder(2).Record(0, time.Millisecond, Failed, errclass.Deadlock, nil)
	r.Recorder(2).AddRetry(0)
	r.Tick()
	r.Recorder(2).Record(0, time.Millisecond, OK, errclass.None, nil)
	r.Tick()
	got := r.PerRecorder()
	want := []int64{2, 0, 2}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("per recorder %v, want %v", got, want)
		}
	}
	got[0] = 99
	if r.PerRecorder()[0] != 2 {
		t.Fatal("PerRecorder returned the registry's own slice")
	}
}
