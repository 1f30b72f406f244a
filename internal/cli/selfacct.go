package cli

import (
	"benchpress/internal/metrics"
	"benchpress/internal/workload"
)

// statementsOf asks the workload for its statement count in the window.
func statementsOf(wl workload.Workload, cum *metrics.Snapshot) int64 {
	if sc, ok := wl.(workload.StmtCounter); ok {
		return sc.Statements(cum)
	}
	return 0
}
