package runner

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestSleepUntil: an open-loop wait never ends more than TimerEarly before
// the intended start; one for a start already past (or nearer than
// TimerEarly) ends at once, and a cancelled context ends it with false.
func TestSleepUntil(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		in      time.Duration
		want    bool
		maxWait time.Duration
	}{
		{"ahead", context.Background(), 3 * time.Millisecond, true, time.Second},
		{"nearer than TimerEarly", context.Background(), TimerEarly / 2, true, 50 * time.Millisecond},
		{"past", context.Background(), -time.Millisecond, true, 50 * time.Millisecond},
		{"cancelled", cancelled, time.Hour, false, 50 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			began := time.Now()
			at := began.Add(tc.in)
			got := sleepUntil(tc.ctx, at)
			now := time.Now()
			if got != tc.want {
				t.Fatalf("sleepUntil = %v, want %v", got, tc.want)
			}
			if got && now.Before(at.Add(-TimerEarly)) {
				t.Errorf("woke %v before the intended start, want at most %v", at.Sub(now), TimerEarly)
			}
			if waited := now.Sub(began); waited > tc.maxWait {
				t.Errorf("waited %v, want at most %v", waited, tc.maxWait)
			}
		})
	}
}

// TestSleepUntilEarly: an open-loop wait mostly ends just before its
// intended start, where a Go timer set for the start itself ends up to a
// millisecond after it (the runtime waits for timers in epoll with
// whole-millisecond timeouts). Interleaved waits of 1-4 ms at random
// fractions of a millisecond: sleepUntil's median lateness must be below
// the plain timer's by at least half of TimerEarly (measured about -0.45
// against +0.55 ms); a sleepUntil that waited for t itself fails. Up to
// three attempts for a loaded machine.
func TestSleepUntilEarly(t *testing.T) {
	median := func(ds []time.Duration) time.Duration {
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	var early, plain time.Duration
	for attempt := 0; attempt < 3; attempt++ {
		var a, b []time.Duration
		for i := 0; i < 40; i++ {
			at := time.Now().Add(time.Millisecond + time.Duration(rand.Int64N(int64(3*time.Millisecond))))
			sleepUntil(context.Background(), at)
			a = append(a, time.Since(at))
			at = time.Now().Add(time.Millisecond + time.Duration(rand.Int64N(int64(3*time.Millisecond))))
			sleepCtx(context.Background(), time.Until(at))
			b = append(b, time.Since(at))
		}
		early, plain = median(a), median(b)
		if early < plain-TimerEarly/2 {
			return
		}
	}
	t.Errorf("median lateness: sleepUntil %v, a timer set for the start %v: want at least %v apart", early, plain, TimerEarly/2)
}
