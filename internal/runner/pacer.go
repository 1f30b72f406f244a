package runner

import (
	"context"
	"math"
	"sync/atomic"
	"time"

	"benchpress/internal/randgen"
)

// ratePacer hands out intended start times for an open-loop rate shared by
// all terminals (k6's constant-arrival-rate, sysbench --rate).
//
// Uniform arrivals: the schedule is a pure function of the ticket number
// (start + i/rate), so no lock is needed: one atomic add per op. Poisson
// arrivals (sysbench --rate with its default exponential gaps): each
// terminal runs its own Poisson process at rate/terminals, and the
// superposition of independent Poisson processes is a Poisson process at
// the total rate; no shared state either.
type ratePacer struct {
	start    time.Time
	rate     float64
	interval float64 // nanoseconds between ops (uniform)
	poisson  bool
	seed     uint64
	n        atomic.Int64
}

func newRatePacer(start time.Time, rate float64, poisson bool, seed uint64) *ratePacer {
	return &ratePacer{start: start, rate: rate, interval: 1e9 / rate, poisson: poisson, seed: seed}
}

// next returns the intended start of the next op (uniform arrivals).
func (p *ratePacer) next() time.Time {
	i := p.n.Add(1) - 1
	return p.start.Add(time.Duration(float64(i) * p.interval))
}

// dropped is how many intended starts of the window [from, to] never ran:
// the target's count for the window minus the operations started in it.
func (p *ratePacer) dropped(to time.Time, started int64, from time.Time) int64 {
	want := int64(math.Round(p.rate * to.Sub(from).Seconds()))
	return max(0, want-started)
}

// poissonClock is one terminal's arrival process at rate/terminals.
type poissonClock struct {
	at     time.Time
	meanNS float64
	r      *randgen.Rand
}

func (p *ratePacer) clock(worker, workers int) *poissonClock {
	return &poissonClock{at: p.start, meanNS: 1e9 * float64(workers) / p.rate, r: randgen.New(p.seed, uint64(worker)|1<<40)}
}

// next returns the intended start of this terminal's next op: the previous
// one plus an exponential gap.
func (c *poissonClock) next() time.Time {
	u := c.r.Float64()
	c.at = c.at.Add(time.Duration(-math.Log(1-u) * c.meanNS))
	return c.at
}

// openLoop counts the open-loop figures of the measurement window.
type openLoop struct {
	started   atomic.Int64
	late      atomic.Int64
	serviceUS atomic.Int64 // sum of service times (actual start to completion)
}

// LateAfter: an operation that starts more than this behind its intended
// time counts as late (the load generator or the system could not keep up).
const LateAfter = 10 * time.Millisecond

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

// sleepCtx sleeps for d or until ctx ends; it reports whether ctx is alive.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
