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

// longestStreak is the most calls one terminal ran in a row.
func longestStreak(log []int) int {
	best, n := 0, 0
	for i, id := range log {
		if i > 0 && id == log[i-1] {
			n++
		} else {
			n = 1
		}
		best = max(best, n)
	}
	return best
}

// TestYieldBetweenTransactions: two spinning terminals on one P take turns
// at every yield (YieldEvery 1 ms: about 10 calls of 100 us in a row) in
// each way a terminal yields (worker.yield: in place, in place around its
// own thread's lock, through the global queue); without yields (the
// control, which shows the test can tell) only the runtime's 10 ms
// preemption switches them (about 100 calls in a row).
func TestYieldBetweenTransactions(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	tests := []struct {
		name             string
		cfg              Config
		minLong, maxLong int
	}{
		{"in place", Config{YieldEvery: time.Millisecond, LocalYield: true}, 1, 40},
		{"own threads", Config{YieldEvery: time.Millisecond, OwnThreads: true}, 1, 40},
		{"global queue", Config{YieldEvery: time.Millisecond}, 1, 40},
		{"control: no yields", Config{}, 60, 1 << 30},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wl := &spinWL{}
			cfg := tc.cfg
			cfg.Terminals, cfg.Duration = 2, 300*time.Millisecond
			if _, err := Run(context.Background(), cfg, wl, &fakeDialer{}); err != nil {
				t.Fatal(err)
			}
			long := longestStreak(wl.log)
			t.Logf("%d calls, longest run %d", len(wl.log), long)
			if long < tc.minLong || long > tc.maxLong || len(wl.log) < 1000 {
				t.Errorf("%d calls, longest run of one terminal %d calls, want %d-%d", len(wl.log), long, tc.minLong, tc.maxLong)
			}
		})
	}
}
