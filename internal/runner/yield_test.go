package runner

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
)

// switches counts the changes of terminal between consecutive calls.
func switches(log []int) int {
	n := 0
	for i := 1; i < len(log); i++ {
		if log[i] != log[i-1] {
			n++
		}
	}
	return n
}

// TestYieldBetweenTransactions: two spinning terminals on one P take turns
// at every yield (YieldEvery 1 ms: about 500 turns in 500 ms) in each way
// a terminal yields (worker.yield: in place, in place around its own
// thread's lock, through the global queue); without yields (the control,
// which shows the test can tell) only the runtime's preemption of a
// goroutine that ran 10 ms switches them (25-50 turns). The bounds leave
// room for a loaded machine: a thread the kernel deschedules for 10 ms
// gets its goroutine preempted into the global queue, which a terminal
// yielding in place on the only P looks at every 61st time.
func TestYieldBetweenTransactions(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	tests := []struct {
		name         string
		cfg          Config
		minSw, maxSw int
	}{
		{"in place", Config{YieldEvery: time.Millisecond, LocalYield: true}, 150, 1 << 30},
		{"own threads", Config{YieldEvery: time.Millisecond, OwnThreads: true}, 150, 1 << 30},
		{"global queue", Config{YieldEvery: time.Millisecond}, 150, 1 << 30},
		{"control: no yields", Config{}, 1, 75},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Every call spins 100 us without parking, as a terminal
			// blocked in raw reads looks to the Go scheduler, and logs
			// which terminal ran it.
			var mu sync.Mutex
			var log []int
			wl := &funcWL{exec: func(id int) {
				for end := time.Now().Add(100 * time.Microsecond); time.Now().Before(end); {
				}
				mu.Lock()
				log = append(log, id)
				mu.Unlock()
			}}
			cfg := tc.cfg
			cfg.Terminals, cfg.Duration = 2, 500*time.Millisecond
			if _, err := Run(context.Background(), cfg, wl, &fakeDialer{}); err != nil {
				t.Fatal(err)
			}
			sw := switches(log)
			t.Logf("%d calls, %d turns", len(log), sw)
			if sw < tc.minSw || sw > tc.maxSw {
				t.Errorf("%d calls, the terminals took turns %d times, want %d-%d", len(log), sw, tc.minSw, tc.maxSw)
			}
		})
	}
}
