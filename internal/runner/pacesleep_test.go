package runner

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestSleepUntil: an open-loop wait never ends before the intended start,
// ends at once for one already past, and a cancelled context ends a Go
// timer's wait with false; with and without the thread's tail.
func TestSleepUntil(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		in      time.Duration
		precise bool
		want    bool
		maxWait time.Duration
	}{
		{"timer", context.Background(), 3 * time.Millisecond, false, true, time.Second},
		{"thread tail", context.Background(), 3 * time.Millisecond, true, true, time.Second},
		{"thread only", context.Background(), PreciseTail / 2, true, true, time.Second},
		{"past", context.Background(), -time.Millisecond, true, true, 50 * time.Millisecond},
		{"cancelled timer", cancelled, time.Hour, false, false, 50 * time.Millisecond},
		{"cancelled before the tail", cancelled, time.Hour, true, false, 50 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			at := time.Now().Add(tc.in)
			got := sleepUntil(tc.ctx, at, tc.precise)
			now := time.Now()
			if got != tc.want {
				t.Fatalf("sleepUntil = %v, want %v", got, tc.want)
			}
			if got && now.Before(at) {
				t.Errorf("woke %v before the intended start", at.Sub(now))
			}
			if waited := now.Sub(at.Add(-max(tc.in, 0))); waited > tc.maxWait {
				t.Errorf("waited %v, want at most %v", waited, tc.maxWait)
			}
		})
	}
}

// TestSleepUntilPrecise: with the thread's tail (a terminal with a P of its
// own) an open-loop wait ends close to its intended start; on a Go timer
// alone it ends up to a millisecond late (the runtime waits for timers in
// epoll with whole-millisecond timeouts). Interleaved waits of 1-4 ms at
// random fractions of a millisecond: the tail's median lateness must be
// under half the timer's (measured 0.08 against 0.54 ms); a tail that fell
// back to a Go timer fails. Up to three attempts for a loaded machine.
func TestSleepUntilPrecise(t *testing.T) {
	if !threadSleepSupported {
		t.Skip("no thread sleep on this platform")
	}
	median := func(ds []time.Duration) time.Duration {
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	var tail, timer time.Duration
	for attempt := 0; attempt < 3; attempt++ {
		var a, b []time.Duration
		for i := 0; i < 40; i++ {
			for _, precise := range []bool{true, false} {
				at := time.Now().Add(time.Millisecond + time.Duration(rand.Int64N(int64(3*time.Millisecond))))
				sleepUntil(context.Background(), at, precise)
				late := time.Since(at)
				if precise {
					a = append(a, late)
				} else {
					b = append(b, late)
				}
			}
		}
		tail, timer = median(a), median(b)
		if tail < timer/2 {
			return
		}
	}
	t.Errorf("median lateness with the thread's tail %v, on a Go timer %v: want under half", tail, timer)
}
