package runner

import (
	"context"
	"time"
)

// TimerEarly is how long before an intended start an open-loop wait ends
// (sleepUntil): the runtime's timer granularity on Linux.
const TimerEarly = time.Millisecond

// sleepUntil waits for t, the intended start of an open-loop operation, and
// returns false if ctx ends first. The wait ends on a Go timer set
// TimerEarly before t, so within about a millisecond before t rather than
// after it; the operation starts then, and the caller counts its latency
// from the earlier of its actual and intended starts.
//
// The wait is part of the response time a run reports (latency counts from
// the intended start), so lateness of the load generator's own would be
// added to every operation. Go's timers are late on Linux by up to a
// millisecond: the runtime's poller waits for the next timer in
// epoll_pwait, whose timeout is in whole milliseconds. Measured on 2
// vCPUs (docs/benchmarks.md "2026-11-27 (19:35)"): 32 goroutines sleeping
// 0.5-15 ms woke 0.54 ms late on average (p99 1.1 ms); MariaDB point
// selects at 2,000/s (32 terminals) showed a response time avg of 0.64 ms
// for a service time of 0.28 ms, and with this wait 0.32-0.36 ms.
// Sleeping the last 2 ms in a raw nanosleep of the terminal's thread
// instead ended each wait within 0.1 ms of t, but woke the thread twice per
// operation: client CPU +20-30 % and a higher p99 than this wait at every
// rate tried.
func sleepUntil(ctx context.Context, t time.Time) bool {
	return sleepCtx(ctx, time.Until(t)-TimerEarly)
}
