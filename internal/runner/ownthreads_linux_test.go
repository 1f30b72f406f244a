package runner

import (
	"context"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestOwnThreads: with OwnThreads every terminal runs on one OS thread of
// its own for the whole run; without it (the control, which shows the test
// can tell) goroutines move between threads.
func TestOwnThreads(t *testing.T) {
	run := func(own bool) map[int]map[int]bool {
		// Every call parks (sleeps), which lets an unlocked goroutine
		// change threads, and records the thread it ran on.
		var mu sync.Mutex
		tids := map[int]map[int]bool{}
		wl := &funcWL{exec: func(id int) {
			time.Sleep(200 * time.Microsecond)
			tid := syscall.Gettid()
			mu.Lock()
			if tids[id] == nil {
				tids[id] = map[int]bool{}
			}
			tids[id][tid] = true
			mu.Unlock()
		}}
		cfg := Config{Terminals: 8, Duration: 300 * time.Millisecond, OwnThreads: own}
		if _, err := Run(context.Background(), cfg, wl, &fakeDialer{}); err != nil {
			t.Fatal(err)
		}
		return tids
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
