package runner

import (
	"sync"
	"sync/atomic"
)

// opBudget limits the number of operations started in the measurement window
// (YCSB operationcount). Taking a ticket is one atomic add; when the last
// ticket is taken, exhausted is closed and the run drains.
type opBudget struct {
	max       int64
	taken     atomic.Int64
	once      sync.Once
	exhausted chan struct{}
}

func newOpBudget(max int64) *opBudget {
	return &opBudget{max: max, exhausted: make(chan struct{})}
}

// take reports whether one more operation may start; unlimited when max is 0.
func (b *opBudget) take() bool {
	if b.max <= 0 {
		return true
	}
	n := b.taken.Add(1)
	if n >= b.max {
		b.once.Do(func() { close(b.exhausted) })
	}
	return n <= b.max
}
