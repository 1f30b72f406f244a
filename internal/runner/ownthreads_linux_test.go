package runner

import (
	"context"
	"sync"
	"syscall"
	"testing"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// tidWL records, per terminal, the OS threads its Exec calls ran on; every
// call parks (sleeps), which lets an unlocked goroutine change threads.
type tidWL struct {
	mu   sync.Mutex
	tids map[int]map[int]bool
}

func (w *tidWL) Ops() []string    { return []string{"op"} }
func (w *tidWL) Extras() []string { return nil }
func (w *tidWL) NewTerminal(ctx context.Context, id, n int, c target.Conn) (workload.Terminal, error) {
	return &tidTerm{wl: w, id: id}, nil
}

type tidTerm struct {
	wl *tidWL
	id int
}

func (t *tidTerm) Next() int       { return 0 }
func (t *tidTerm) Extras() []int64 { return nil }
func (t *tidTerm) Close()          {}
func (t *tidTerm) Exec(ctx context.Context, op int) (metrics.Outcome, error) {
	time.Sleep(200 * time.Microsecond)
	tid := syscall.Gettid()
	t.wl.mu.Lock()
	if t.wl.tids[t.id] == nil {
		t.wl.tids[t.id] = map[int]bool{}
	}
	t.wl.tids[t.id][tid] = true
	t.wl.mu.Unlock()
	return metrics.OK, nil
}

// TestOwnThreads: with OwnThreads every terminal runs on one OS thread of
// its own for the whole run; without it (the control, which shows the test
// can tell) goroutines move between threads.
func TestOwnThreads(t *testing.T) {
	run := func(own bool) map[int]map[int]bool {
		wl := &tidWL{tids: map[int]map[int]bool{}}
		cfg := Config{Terminals: 8, Duration: 300 * time.Millisecond, OwnThreads: own}
		if _, err := Run(context.Background(), cfg, wl, &fakeDialer{}); err != nil {
			t.Fatal(err)
		}
		return wl.tids
	}
	seen := map[int]int{}
	for id, tids := range run(true) {
		if len(tids) != 1 {
			t.Errorf("terminal %d ran on %d threads with OwnThreads, want 1", id, len(tids))
		}
		for tid := range tids {
			if other, ok := seen[tid]; ok {
				t.Errorf("terminals %d and %d share thread %d", other, id, tid)
			}
			seen[tid] = id
		}
	}
	moved := false
	for _, tids := range run(false) {
		moved = moved || len(tids) > 1
	}
	if !moved {
		t.Log("control: no terminal changed threads without OwnThreads on this run")
	}
}
