package runner

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestSleepUntil: an open-loop wait with the thread's tail never ends
// before the intended start, one on a Go timer alone never more than
// TimerEarly before it; a wait for a start already past ends at once, and
// a cancelled context ends a Go timer's wait with false.
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
		{"timer, less than TimerEarly", context.Background(), TimerEarly / 2, false, true, 50 * time.Millisecond},
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
			early := time.Duration(0)
			if !tc.precise || !threadSleepSupported {
				early = TimerEarly
			}
			if got && now.Before(at.Add(-early)) {
				t.Errorf("woke %v before the intended start, want at most %v", at.Sub(now), early)
			}
			if waited := now.Sub(at.Add(-max(tc.in, 0))); waited > tc.maxWait {
				t.Errorf("waited %v, want at most %v", waited, tc.maxWait)
			}
		})
	}
}

// TestSleepUntilPrecise: with the thread's tail (a terminal with a P of its
// own) an open-loop wait ends close to its intended start, and without it
// (the poller) mostly just before it; a Go timer set for the start itself
// ends up to a millisecond late (the runtime waits for timers in epoll with
// whole-millisecond timeouts). Interleaved waits of 1-4 ms at random
// fractions of a millisecond: the tail's median lateness must be under half
// the plain timer's (measured 0.08 against 0.54 ms) and the poller's wait
// must end earlier than the plain timer's by at least half of TimerEarly;
// either branch falling back to a plain timer fails. Up to three attempts
// for a loaded machine.
func TestSleepUntilPrecise(t *testing.T) {
	if !threadSleepSupported {
		t.Skip("no thread sleep on this platform")
	}
	median := func(ds []time.Duration) time.Duration {
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	waits := []struct {
		name  string
		sleep func(time.Time)
	}{
		{"thread tail", func(at time.Time) { sleepUntil(context.Background(), at, true) }},
		{"poller", func(at time.Time) { sleepUntil(context.Background(), at, false) }},
		{"plain timer", func(at time.Time) { sleepCtx(context.Background(), time.Until(at)) }},
	}
	var m [3]time.Duration
	for attempt := 0; attempt < 3; attempt++ {
		var late [3][]time.Duration
		for i := 0; i < 40; i++ {
			for k, w := range waits {
				at := time.Now().Add(time.Millisecond + time.Duration(rand.Int64N(int64(3*time.Millisecond))))
				w.sleep(at)
				late[k] = append(late[k], time.Since(at))
			}
		}
		for k := range m {
			m[k] = median(late[k])
		}
		if m[0] < m[2]/2 && m[1] < m[2]-TimerEarly/2 {
			return
		}
	}
	t.Errorf("median lateness: %s %v, %s %v, %s %v", waits[0].name, m[0], waits[1].name, m[1], waits[2].name, m[2])
}
