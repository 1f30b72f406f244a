package runner

import (
	"context"
	"time"
)

// PreciseTail is how much of an open-loop wait for an intended start a
// terminal with a P of its own (Config.PreciseSleep) sleeps in its thread
// rather than on a Go timer: more than the runtime's timers are late on
// Linux (up to about 1.1 ms at the 99th percentile, see sleepUntil).
const PreciseTail = 2 * time.Millisecond

// TimerEarly is how long before an intended start a wait on a Go timer
// alone ends (sleepUntil): the runtime's timer granularity on Linux.
const TimerEarly = time.Millisecond

// OpenLoopTail is how much of each open-loop wait cfg's terminals sleep in
// their thread (sleepUntil): PreciseTail for an open-loop run whose
// terminals hold a P each where the platform allows it, else 0.
func OpenLoopTail(cfg Config) time.Duration {
	if cfg.Rate > 0 && cfg.PreciseSleep && threadSleepSupported {
		return PreciseTail
	}
	return 0
}

// sleepUntil waits until t, the intended start of an open-loop operation,
// or the end of ctx (false).
//
// The wait is part of the response time the run reports (latency counts
// from the intended start), so the load generator's own lateness is added
// to every operation. Go's timers are late on Linux by up to a millisecond:
// the runtime's poller waits for the next timer in epoll_pwait, whose
// timeout is in whole milliseconds. Measured on 2 vCPUs, 32 goroutines
// sleeping 0.5-15 ms (docs/benchmarks.md "2026-11-27 (19:35)"): time.Sleep
// woke 0.54 ms late on average (p99 1.1 ms); a raw nanosleep 0.09 ms (p99
// 0.3 ms); a Go timer up to PreciseTail before t and a raw nanosleep for
// the rest 0.08 ms (p99 0.15-0.2 ms). MariaDB point selects at 2,000/s
// (32 terminals): the response time's mean was 0.64 ms for a service time
// of 0.28 ms.
//
// With precise (the terminal holds a P of its own, so a thread blocked in a
// raw call stalls nobody: target.SocketBlocking) the last PreciseTail is
// slept that way and the wait ends at t; ctx is looked at again after it.
// Without, a thread must not block (on the poller many terminals share a
// P), and the wait is on a Go timer set TimerEarly before t: it ends
// within about a millisecond before t rather than after it, and the
// operation starts then (the caller counts its latency from the earlier
// of its actual and intended starts). Measured with PostgreSQL point
// selects at 3,000/s (64 terminals on the poller): response time avg
// 0.85 ms for a service time of 0.46 ms on a timer set for t.
func sleepUntil(ctx context.Context, t time.Time, precise bool) bool {
	d := time.Until(t)
	if !precise || !threadSleepSupported {
		return sleepCtx(ctx, d-TimerEarly)
	}
	if d > PreciseTail && !sleepCtx(ctx, d-PreciseTail) {
		return false
	}
	threadSleepUntil(t)
	return ctx.Err() == nil
}
