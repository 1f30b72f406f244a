package runner

import (
	"time"

	"benchpress/internal/metrics"
)

// reporter folds one-second ticks into ReportInterval live reports.
type reporter struct {
	cfg     *Config
	reg     *metrics.Registry
	started time.Time
	acc     *metrics.Snapshot // merged ticks of the current report window (reused)
	last    time.Time
	// ending is set once the window has closed and its drain is over:
	// the line emitted from then on is the run's last (Report.Final).
	ending bool
}

func newReporter(cfg *Config, reg *metrics.Registry, started time.Time) *reporter {
	return &reporter{cfg: cfg, reg: reg, started: started, last: started}
}

// reportSlack is how much shorter than ReportInterval the time since the
// last line may be when a tick closes the window (a late tick always
// does): the ticker's goroutine shares the CPUs with the terminals and the
// server, and at 128 terminals on 2 vCPUs a tick came 117 ms late, so the
// punctual one after it found 0.89 s since the line; with the 50 ms of
// before that second got no line ("[ 1s ]", "[ 3s ]", the second line
// covering 1.9 s). At most half the interval, so that a tick at a phase
// edge (the warm-up's end) folds into the next line.
const reportSlack = 400 * time.Millisecond

// add merges a tick that ended at now and reports when it closes a report
// window.
func (r *reporter) add(s *metrics.Snapshot, now time.Time) {
	if r.cfg.OnReport == nil || r.cfg.ReportInterval <= 0 {
		return
	}
	if r.acc == nil {
		r.acc = metrics.NewSnapshot(len(r.reg.Ops()), len(r.reg.Extras()))
	}
	r.acc.Add(s)
	if now.Sub(r.last) < r.cfg.ReportInterval-min(reportSlack, r.cfg.ReportInterval/2) {
		return
	}
	r.emit(now)
}

// flush reports the last, partial interval when the run ends between two
// live lines (at least minTick of it), so the live output covers the
// whole run.
func (r *reporter) flush(now time.Time) {
	if r.cfg.OnReport == nil || r.cfg.ReportInterval <= 0 || r.acc == nil || now.Sub(r.last) < minTick {
		return
	}
	r.emit(now)
}

// phaseEdge ends the warm-up's live lines at the window's start: a
// remainder of more than reportSlack gets its own warm-up line (folded
// into the first measured line, a 5 s warm-up's tail under a 10 s
// interval would make half of that line's rate the ramp-up's, labelled
// as measured); a shorter one folds into the next line.
func (r *reporter) phaseEdge(now time.Time) {
	if now.Sub(r.last) > reportSlack {
		r.flush(now)
	}
}

func (r *reporter) emit(now time.Time) {
	phase := "warmup"
	if r.reg.Phase() == metrics.Measure {
		phase = "measure"
	}
	r.cfg.OnReport(Report{
		Elapsed: now.Sub(r.started), Phase: phase, Seconds: now.Sub(r.last).Seconds(),
		Snap: r.acc, OpNames: r.reg.Ops(), Terminal: r.cfg.Terminals, Final: r.ending,
	})
	r.acc.Reset()
	r.last = now
}
