package console

import (
	"io"
	"sync"
	"sync/atomic"
	"time"

	"benchpress/internal/load"
)

// RowProgress aggregates concurrent per-batch row counts into LoadProgress
// lines, at most five a second.
type RowProgress struct {
	est   int64
	rows  atomic.Int64
	start time.Time
	mu    sync.Mutex
	last  time.Time
	print func(load.Progress)
}

// NewRowProgress prints to w (rewriting one line when isTTY) for an
// expected est rows.
func NewRowProgress(w io.Writer, isTTY bool, est int64) *RowProgress {
	return &RowProgress{est: est, start: time.Now(), print: LoadProgress(w, isTTY)}
}

// Add counts n more rows; safe for concurrent use.
func (p *RowProgress) Add(n int64) {
	rows := p.rows.Add(n)
	if !p.mu.TryLock() {
		return
	}
	defer p.mu.Unlock()
	if time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last = time.Now()
	p.print(load.Progress{Rows: rows, EstRows: p.est, Elapsed: time.Since(p.start)})
}

// Done prints the final line.
func (p *RowProgress) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.print(load.Progress{Rows: p.rows.Load(), EstRows: p.est, Elapsed: time.Since(p.start), Done: true})
}
