package partition

import (
	"context"
	"fmt"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// Wrap returns a workload that runs only the terminals with the given global
// ids of a run of total terminals: the runner's terminal k becomes the
// inner workload's terminal ids[k] of total, so its home warehouse, district
// and random stream are those it would have in one process. The optional
// interfaces the runner and the CLI look for (Summarizer, StmtCounter,
// ConcurrentTerminals, LongRoundTrips) are passed through.
func Wrap(inner workload.Workload, ids []int, total int) workload.Workload {
	return &wrapped{inner: inner, ids: ids, total: total}
}

type wrapped struct {
	inner workload.Workload
	ids   []int
	total int
}

var (
	_ workload.Summarizer         = (*wrapped)(nil)
	_ workload.StmtCounter        = (*wrapped)(nil)
	_ workload.TerminalSummarizer = (*wrapped)(nil)
	_ workload.LongRoundTrips     = (*wrapped)(nil)
)

func (w *wrapped) Ops() []string    { return w.inner.Ops() }
func (w *wrapped) Extras() []string { return w.inner.Extras() }

// NewTerminal creates local terminal k as the inner workload's global one.
func (w *wrapped) NewTerminal(ctx context.Context, k, _ int, conn target.Conn) (workload.Terminal, error) {
	if k < 0 || k >= len(w.ids) {
		return nil, fmt.Errorf("partition: terminal %d of %d", k, len(w.ids))
	}
	return w.inner.NewTerminal(ctx, w.ids[k], w.total, conn)
}

func (w *wrapped) ConcurrentTerminals() bool {
	ct, ok := w.inner.(interface{ ConcurrentTerminals() bool })
	return ok && ct.ConcurrentTerminals()
}

func (w *wrapped) Summarize(r *results.Run, cum *metrics.Snapshot) {
	if s, ok := w.inner.(workload.Summarizer); ok {
		s.Summarize(r, cum)
	}
}

func (w *wrapped) SummarizeTerminals(r *results.Run, events []int64) {
	if s, ok := w.inner.(workload.TerminalSummarizer); ok {
		s.SummarizeTerminals(r, events)
	}
}

func (w *wrapped) Statements(cum *metrics.Snapshot) int64 {
	if s, ok := w.inner.(workload.StmtCounter); ok {
		return s.Statements(cum)
	}
	return 0
}

// LongRoundTrips passes the inner workload's declaration through.
func (w *wrapped) LongRoundTrips() bool { return workload.HasLongRoundTrips(w.inner) }

// Unwrap returns the inner workload (the CLI checks it for its own hooks).
func (w *wrapped) Unwrap() workload.Workload { return w.inner }
