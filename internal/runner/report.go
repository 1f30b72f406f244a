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
	acc     []Tick
	last    time.Time
}

func newReporter(cfg *Config, reg *metrics.Registry, started time.Time) *reporter {
	return &reporter{cfg: cfg, reg: reg, started: started, last: started}
}

func (r *reporter) add(t Tick) {
	if r.cfg.OnReport == nil || r.cfg.ReportInterval <= 0 {
		return
	}
	r.acc = append(r.acc, t)
	now := time.Now()
	if now.Sub(r.last) < r.cfg.ReportInterval-50*time.Millisecond {
		return
	}
	snaps := make([]*metrics.Snapshot, len(r.acc))
	for i, a := range r.acc {
		snaps[i] = a.Snap
	}
	phase := "warmup"
	if r.reg.Phase() == metrics.Measure {
		phase = "measure"
	}
	r.cfg.OnReport(Report{
		Elapsed: now.Sub(r.started), Phase: phase, Seconds: now.Sub(r.last).Seconds(),
		Snap: metrics.Merge(len(r.reg.Ops()), len(r.reg.Extras()), snaps...), OpNames: r.reg.Ops(),
		Terminal: r.cfg.Terminals,
	})
	r.acc = r.acc[:0]
	r.last = now
}
