package cli

import (
	"strings"

	"benchpress/internal/metrics"
	"benchpress/internal/monitor"
	"benchpress/internal/results"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// selfAccount measures the driver's own CPU and memory over the
// measurement window.
type selfAccount struct{ s *monitor.Self }

func startSelfAccount() *selfAccount { return &selfAccount{s: monitor.StartSelf()} }

// stop computes the driver figures for run and assesses whether the driver
// may have been the bottleneck.
// stmts is the number of statement round trips in the window (0 if unknown).
func (a *selfAccount) stop(run *results.Run, stmts int64) *results.Driver {
	d := a.s.Stop(run.Summary.Transactions+run.Summary.Errors, stmts)
	if run.TargetKind == string(target.SQLite) {
		// The embedded engine runs inside this process: its CPU is counted as
		// the driver's, so no driver-bound verdict is possible.
		d.DriverBoundNote = "embedded SQLite runs inside benchpress: driver CPU includes the database engine"
		return &d
	}
	monitor.Assess(&d, targetIsLocal(run))
	return &d
}

// statementsOf asks the workload for its statement count in the window.
func statementsOf(wl workload.Workload, cum *metrics.Snapshot) int64 {
	if sc, ok := wl.(workload.StmtCounter); ok {
		return sc.Statements(cum)
	}
	return 0
}

// targetIsLocal reports whether the database shares this machine's CPUs.
func targetIsLocal(run *results.Run) bool {
	if run.TargetKind == string(target.SQLite) {
		return true
	}
	for _, h := range []string{"@127.", "@localhost", "@[::1]", ",127.", ",localhost"} {
		if strings.Contains(run.Target, h) {
			return true
		}
	}
	return false
}
