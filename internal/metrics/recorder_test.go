package metrics

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"benchpress/internal/errclass"
)

func TestSamplePacking(t *testing.T) {
	tests := []struct {
		meas  bool
		op    int
		kind  uint8
		class errclass.Class
		us    int64
	}{
		{false, 0, uint8(OK), errclass.None, minLatencyUS},
		{true, 4, uint8(Rollback), errclass.None, 123456},
		{true, maxOps - 1, uint8(Failed), errclass.Num - 1, maxLatencyUS},
		{false, 7, kindRetry, errclass.None, 0},
	}
	for _, tc := range tests {
		s := packSample(tc.meas, tc.op, tc.kind, tc.class, tc.us)
		if s.measured() != tc.meas || s.op() != tc.op || s.kind() != tc.kind || s.class() != tc.class || s.us() != tc.us {
			t.Errorf("%+v packed and unpacked as meas=%v op=%d kind=%d class=%d us=%d", tc, s.measured(), s.op(), s.kind(), s.class(), s.us())
		}
	}
}

// TestConcurrentExactUnderSwap records from many goroutines while the
// ticker swaps buffers as fast as it can, across a phase switch, and checks
// that every sample, retry and extra lands exactly once in the sum of the
// intervals and, for the measured ones, in the cumulative result.
func TestConcurrentExactUnderSwap(t *testing.T) {
	const workers, each = 12, 4000
	r := NewRegistry([]string{"a", "b"}, []string{"x"}, workers)
	var ivTotal OpCounts
	var ivExtra, ivHist int64
	stop, tickerDone := make(chan struct{}), make(chan struct{})
	tick := func() {
		iv := r.Tick()
		for op := range iv.Counts {
			c := &iv.Counts[op]
			ivTotal.OK += c.OK
			ivTotal.Rollback += c.Rollback
			ivTotal.Retries += c.Retries
			ivTotal.Errs[errclass.Deadlock] += c.Errs[errclass.Deadlock]
			if h := iv.OKHist[op]; h != nil {
				ivHist += h.TotalCount()
			}
			if h := iv.ErrHist[op]; h != nil {
				ivHist += h.TotalCount()
			}
		}
		ivExtra += iv.Extra[0]
	}
	go func() {
		defer close(tickerDone)
		for {
			select {
			case <-stop:
				return
			default:
				tick()
			}
		}
	}()
	var wg sync.WaitGroup
	var measured [workers]int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rec := r.Recorder(w)
			ex := []int64{0}
			for i := 0; i < each; i++ {
				if w == 0 && i == each/2 {
					r.SetPhase(Measure)
				}
				ph := r.Phase()
				ex[0] = 2
				out := Outcome(i % 3)
				rec.RecordIn(ph, i%2, time.Duration(i)*time.Microsecond, out, errclass.Deadlock, ex)
				if ph == Measure {
					measured[w]++
				}
			}
		}(w)
	}
	wg.Wait()
	close(stop)
	<-tickerDone
	tick()
	const total = workers * each
	if got := ivTotal.OK + ivTotal.Rollback + ivTotal.Errs[errclass.Deadlock]; got != total || ivHist != total {
		t.Fatalf("intervals counted %d (histograms %d), want %d", got, ivHist, total)
	}
	if ivExtra != 2*total {
		t.Fatalf("interval extras %d, want %d", ivExtra, 2*total)
	}
	var wantMeas int64
	for _, m := range measured {
		wantMeas += m
	}
	c := r.Cumulative()
	var gotMeas, gotHist int64
	for op := range c.Counts {
		gotMeas += c.Counts[op].OK + c.Counts[op].Rollback + c.Counts[op].Errors()
		if c.OKHist[op] != nil {
			gotHist += c.OKHist[op].TotalCount()
		}
		if c.ErrHist[op] != nil {
			gotHist += c.ErrHist[op].TotalCount()
		}
	}
	if gotMeas != wantMeas || gotHist != wantMeas || c.Extra[0] != 2*wantMeas {
		t.Fatalf("cumulative %d (histograms %d, extras %d), want %d (extras %d)", gotMeas, gotHist, c.Extra[0], wantMeas, 2*wantMeas)
	}
}

func TestRecordDoesNotAllocate(t *testing.T) {
	r := NewRegistry([]string{"a", "b"}, []string{"x"}, 1)
	r.SetPhase(Measure)
	rec := r.Recorder(0)
	ex := []int64{0}
	fill := func() {
		for i := 0; i < 1000; i++ {
			ex[0] = 1
			rec.Record(i%2, time.Millisecond, OK, errclass.None, ex)
			rec.AddRetry(0, errclass.LockTimeout)
			rec.AddRetryIn(Measure, 1, errclass.Deadlock)
			rec.AddExtra(0, 1)
		}
	}
	// Grow both buffers to a tick's worth, then measure a steady state.
	fill()
	r.Tick()
	fill()
	r.Tick()
	allocs := testing.AllocsPerRun(20, func() {
		fill()
		r.Tick()
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per tick of 1000 records, want 0", allocs)
	}
}

// TestFootprintIndependentOfWorkers: 4096 workers and five operation types
// (TPC-C at 4096 terminals) cost little more than the ticker's histograms.
func TestFootprintIndependentOfWorkers(t *testing.T) {
	ops := []string{"a", "b", "c", "d", "e"}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	r := NewRegistry(ops, []string{"x", "y"}, 4096)
	r.SetPhase(Measure)
	for w := 0; w < 4096; w++ {
		for op := range ops {
			r.Recorder(w).Record(op, time.Duration(w+op)*time.Millisecond, OK, errclass.None, nil)
		}
	}
	r.Tick()
	after := heap()
	runtime.KeepAlive(r)
	// Ten histograms (interval and cumulative OK for five ops) are ~1.9 MB.
	if grew := int64(after) - int64(before); grew > 8<<20 {
		t.Fatalf("registry for 4096 workers x 5 ops holds %d KB, want < 8 MB", grew>>10)
	}
}

func BenchmarkRecordParallel(b *testing.B) {
	r := NewRegistry([]string{"a"}, nil, runtime.GOMAXPROCS(0)*4)
	r.SetPhase(Measure)
	var next int64
	var mu sync.Mutex
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				r.Tick()
			}
		}
	}()
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		rec := r.Recorder(int(next))
		next++
		mu.Unlock()
		for pb.Next() {
			rec.Record(0, time.Millisecond, OK, errclass.None, nil)
		}
	})
	close(stop)
}

// TestRetryCountsInTheTransactionsPhase: a retry counts in the phase its
// transaction started in (AddRetryIn), as the transaction's outcome does,
// whatever the phase is when the retry happens; Done drops it.
func TestRetryCountsInTheTransactionsPhase(t *testing.T) {
	tests := []struct {
		name           string
		started, now   Phase
		wantWindow     int64 // retries in the cumulative (window) result
		wantInInterval int64 // retries in the tick's interval (warm-up and window)
	}{
		{"warm-up, retried after the window opened", Warmup, Measure, 0, 1},
		{"window, retried after it closed", Measure, Done, 1, 1},
		{"window, retried in it", Measure, Measure, 1, 1},
		{"warm-up, retried in it", Warmup, Warmup, 0, 1},
		{"after the window", Done, Done, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry([]string{"a"}, nil, 1)
			r.SetPhase(tc.now)
			r.Recorder(0).AddRetryIn(tc.started, 0, errclass.Deadlock)
			iv := r.Tick()
			if got := iv.Counts[0].Retries; got != tc.wantInInterval {
				t.Errorf("interval retries %d, want %d", got, tc.wantInInterval)
			}
			c := r.Cumulative().Counts[0]
			if c.Retries != tc.wantWindow || c.RetryErrs[errclass.Deadlock] != tc.wantWindow {
				t.Errorf("window retries %d (deadlock %d), want %d", c.Retries, c.RetryErrs[errclass.Deadlock], tc.wantWindow)
			}
		})
	}
}
