package runner

import (
	"sync/atomic"
	"time"
)

// ratePacer hands out intended start times for an open-loop constant rate
// shared by all terminals. The schedule is a pure function of the ticket
// number (start + i/rate), so no lock is needed: one atomic add per op.
type ratePacer struct {
	start    time.Time
	interval float64 // nanoseconds between ops
	n        atomic.Int64
}

func newRatePacer(start time.Time, rate float64) *ratePacer {
	return &ratePacer{start: start, interval: 1e9 / rate}
}

// next returns the intended start of the next op.
func (p *ratePacer) next() time.Time {
	i := p.n.Add(1) - 1
	return p.start.Add(time.Duration(float64(i) * p.interval))
}
