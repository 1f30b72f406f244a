package runner

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
	"benchpress/internal/workload"
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

// blockWL's terminals block in every transaction until the run's hard
// stop cancels them (a statement stuck on a lock no one releases).
type blockWL struct{ fakeWL }

func (w *blockWL) NewTerminal(ctx context.Context, id, n int, c target.Conn) (workload.Terminal, error) {
	return &blockTerm{}, nil
}

type blockTerm struct{ fakeTerm }

func (*blockTerm) Exec(ctx context.Context, op int) (metrics.Outcome, error) {
	<-ctx.Done()
	return metrics.Failed, ctx.Err()
}

// TestAbandonedInFlight: transactions of the window still in flight when
// the drain's grace runs out are aborted, and counted (the run cannot
// show their latencies, so it must say they were there).
func TestAbandonedInFlight(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel) // interrupted: the short grace
	res, err := Run(ctx, Config{Terminals: 2, Duration: 10 * time.Second}, &blockWL{}, &fakeDialer{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Abandoned != 2 {
		t.Errorf("abandoned %d, want the 2 terminals' transactions", res.Abandoned)
	}
}
