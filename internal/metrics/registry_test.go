package metrics

import (
	"reflect"
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
	rec.AddRetry(1, errclass.Deadlock)
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
	r.Recorder(2).AddRetry(0, errclass.Deadlock)
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

// Every failed attempt is counted once by class: retried ones in
// RetryErrs (summing to Retries), final failures in Errs.
func TestRetriesByClass(t *testing.T) {
	type retry struct {
		op    int
		class errclass.Class
	}
	for _, tc := range []struct {
		name      string
		retries   []retry
		failed    []errclass.Class // final failures of op 0
		wantRetry map[errclass.Class]int64
		wantErrs  map[errclass.Class]int64
	}{
		{"lock waits retried then committed", []retry{{0, errclass.LockTimeout}, {0, errclass.LockTimeout}, {0, errclass.Deadlock}}, nil,
			map[errclass.Class]int64{errclass.LockTimeout: 2, errclass.Deadlock: 1}, nil},
		{"retries exhausted", []retry{{0, errclass.Serialization}, {0, errclass.Serialization}}, []errclass.Class{errclass.Serialization},
			map[errclass.Class]int64{errclass.Serialization: 2}, map[errclass.Class]int64{errclass.Serialization: 1}},
		{"not retried", nil, []errclass.Class{errclass.Other, errclass.Constraint}, nil,
			map[errclass.Class]int64{errclass.Other: 1, errclass.Constraint: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry([]string{"a"}, nil, 1)
			r.SetPhase(Measure)
			rec := r.Recorder(0)
			for _, x := range tc.retries {
				rec.AddRetry(x.op, x.class)
			}
			for _, cl := range tc.failed {
				rec.Record(0, time.Millisecond, Failed, cl, nil)
			}
			r.Tick()
			c := r.Cumulative().Counts[0]
			var sum int64
			for cl := errclass.Class(0); cl < errclass.Num; cl++ {
				if c.RetryErrs[cl] != tc.wantRetry[cl] {
					t.Errorf("retries of %s: %d, want %d", cl, c.RetryErrs[cl], tc.wantRetry[cl])
				}
				if c.Errs[cl] != tc.wantErrs[cl] {
					t.Errorf("errors of %s: %d, want %d", cl, c.Errs[cl], tc.wantErrs[cl])
				}
				sum += c.RetryErrs[cl]
				if got, want := c.RetryErrs[cl]+c.Errs[cl], tc.wantRetry[cl]+tc.wantErrs[cl]; got != want {
					t.Errorf("failed attempts of %s: %d, want %d", cl, got, want)
				}
			}
			if sum != c.Retries || c.Retries != int64(len(tc.retries)) {
				t.Errorf("retries %d, by class %d, want %d", c.Retries, sum, len(tc.retries))
			}
			m := Merge(1, 0, r.Cumulative(), r.Cumulative())
			if m.Counts[0].RetryErrs != mul2(c.RetryErrs) {
				t.Errorf("merged retries by class %v, want twice %v", m.Counts[0].RetryErrs, c.RetryErrs)
			}
		})
	}
}

func mul2(a [errclass.Num]int64) [errclass.Num]int64 {
	for i := range a {
		a[i] *= 2
	}
	return a
}

// TestIdle: each recorder's longest stretch of window ticks without a
// measured attempt; a retry or a warm-up sample is no completion.
func TestIdle(t *testing.T) {
	tests := []struct {
		name string
		// per tick, which recorders complete a measured attempt
		ticks [][]bool
		want  []float64
	}{
		{"busy", [][]bool{{true, true}, {true, true}}, []float64{0, 0}},
		{"idle all along", [][]bool{{true, false}, {true, false}, {true, false}}, []float64{0, 3}},
		{"longest of two stretches", [][]bool{{false, false}, {true, false}, {false, true}, {false, false}, {false, true}}, []float64{3, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry([]string{"a"}, nil, 2)
			r.SetPhase(Measure)
			for _, tick := range tc.ticks {
				for i, done := range tick {
					if done {
						r.Recorder(i).Record(0, time.Millisecond, OK, errclass.None, nil)
					} else {
						r.Recorder(i).AddRetry(0, errclass.Deadlock)
						r.Recorder(i).RecordIn(Warmup, 0, time.Millisecond, OK, errclass.None, nil)
					}
				}
				r.Tick()
				r.Idle(1)
			}
			if got := r.LongestIdle(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("longest idle %v, want %v", got, tc.want)
			}
		})
	}
}
