package runner

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// spinWL's terminals spin through every Exec without parking, as a
// terminal blocked in raw reads looks to the Go scheduler, and log which
// terminal ran each call.
type spinWL struct {
	mu  sync.Mutex
	log []int
}

func (w *spinWL) Ops() []string    { return []string{"op"} }
func (w *spinWL) Extras() []string { return nil }
func (w *spinWL) NewTerminal(ctx context.Context, id, n int, c target.Conn) (workload.Terminal, error) {
	return &spinTerm{wl: w, id: id}, nil
}

type spinTerm struct {
	wl *spinWL
	id int
}

func (t *spinTerm) Next() int       { return 0 }
func (t *spinTerm) Extras() []int64 { return nil }
func (t *spinTerm) Close()          {}
func (t *spinTerm) Exec(ctx context.Context, op int) (metrics.Outcome, error) {
	for end := time.Now().Add(100 * time.Microsecond); time.Now().Before(end); {
	}
	t.wl.mu.Lock()
	t.wl.log = append(t.wl.log, t.id)
	t.wl.mu.Unlock()
	return metrics.OK, nil
}

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
			wl := &spinWL{}
			cfg := tc.cfg
			cfg.Terminals, cfg.Duration = 2, 500*time.Millisecond
			if _, err := Run(context.Background(), cfg, wl, &fakeDialer{}); err != nil {
				t.Fatal(err)
			}
			sw := switches(wl.log)
			t.Logf("%d calls, %d turns", len(wl.log), sw)
			if sw < tc.minSw || sw > tc.maxSw {
				t.Errorf("%d calls, the terminals took turns %d times, want %d-%d", len(wl.log), sw, tc.minSw, tc.maxSw)
			}
		})
	}
}
