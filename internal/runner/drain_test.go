package runner

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestDrainIsAnnounced: when the transactions in flight at the window's
// end take longer than DrainNotice to complete, the run reports the phase
// "drain" before "done" (the console says what it waits for); a quick
// drain is not announced. The window's close is ("closed": the driver's
// CPU figures end there, not after the drain). Their commits still count. A run without warm-up
// announces its window's opening ("measure") too, once the terminals are
// ready.
func TestDrainIsAnnounced(t *testing.T) {
	tests := []struct {
		name    string
		service time.Duration
		want    []string
	}{
		{"quick", 5 * time.Millisecond, []string{"measure", "closed", "done"}},
		{"slow", DrainNotice + 500*time.Millisecond, []string{"measure", "closed", "drain", "done"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var phases []string
			wl := &fakeWL{service: tc.service}
			cfg := Config{Terminals: 2, Duration: 300 * time.Millisecond, OnPhase: func(p string) {
				mu.Lock()
				phases = append(phases, p)
				mu.Unlock()
			}}
			res, err := Run(context.Background(), cfg, wl, &fakeDialer{})
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if !slices.Equal(phases, tc.want) {
				t.Errorf("phases %v, want %v", phases, tc.want)
			}
			if got := res.Cumulative.Counts[0].OK; got != wl.committed.Load() {
				t.Errorf("counted %d, committed %d", got, wl.committed.Load())
			}
		})
	}
}
