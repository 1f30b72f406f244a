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
}

func newReporter(cfg *Config, reg *metrics.Registry, started time.Time) *reporter {
	return &reporter{cfg: cfg, reg: reg, started: started, last: started}
}

func (r *reporter) add(s *metrics.Snapshot) {
	if r.cfg.OnReport == nil || r.cfg.ReportInterval <= 0 {
		return
	}
	if r.acc == nil {
		r.acc = metrics.NewSnapshot(len(r.reg.Ops()), len(r.reg.Extras()))
	}
	r.acc.Add(s)
	if time.Since(r.last) < r.cfg.ReportInterval-50*time.Millisecond {
		return
	}
	r.emit()
}

// flush reports the last, partial interval when the run ends between two
// live lines (at least minTick of it), so the live output covers the
// whole run.
func (r *reporter) flush() {
	if r.cfg.OnReport == nil || r.cfg.ReportInterval <= 0 || r.acc == nil || time.Since(r.last) < minTick {
		return
	}
	r.emit()
}

func (r *reporter) emit() {
	now := time.Now()
	phase := "warmup"
	if r.reg.Phase() == metrics.Measure {
		phase = "measure"
	}
	r.cfg.OnReport(Report{
		Elapsed: now.Sub(r.started), Phase: phase, Seconds: now.Sub(r.last).Seconds(),
		Snap: r.acc, OpNames: r.reg.Ops(), Terminal: r.cfg.Terminals,
	})
	r.acc.Reset()
	r.last = now
}
