package monitor

import (
	"strings"

	"benchpress/internal/results"
	"benchpress/internal/target"
)

// DriverFigures stops s and computes the driver figures for run (its
// summary and target filled in), assessing whether the driver may have been
// the bottleneck (not for embedded SQLite, whose engine runs inside this
// process). stmts is the number of statement round trips in the window (0
// if unknown).
func (s *Self) DriverFigures(run *results.Run, stmts int64) *results.Driver {
	d := s.Stop(run.Summary.Transactions+run.Summary.Errors, stmts)
	if run.TargetKind == string(target.SQLite) {
		// The embedded engine runs inside this process: its CPU is counted as
		// the driver's, so no driver-bound verdict is possible.
		d.DriverBoundNote = "embedded SQLite runs inside benchpress: driver CPU includes the database engine"
		return &d
	}
	Assess(&d, TargetIsLocal(run))
	return &d
}

// TargetIsLocal reports whether the database shares this machine's CPUs.
func TargetIsLocal(run *results.Run) bool {
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
