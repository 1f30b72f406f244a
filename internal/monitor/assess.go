package monitor

import (
	"fmt"

	"benchpress/internal/results"
)

// Thresholds of the driver-bound heuristic; see [Assess].
const (
	// perDBCoreLimit is the driver CPU, in cores, per core left to a
	// database on the same machine above which the driver is suspect.
	// A healthy OLTP driver spends a small fraction of the database's CPU
	// per transaction; half a core for every database core is far beyond it.
	perDBCoreLimit = 0.5
	// saturatedBusyPct is the machine busy percentage taken as saturated.
	saturatedBusyPct = 90.0
	// saturatedSharePct is the driver's share of busy CPU that, on a
	// saturated machine, makes the driver a likely competitor for CPU.
	saturatedSharePct = 40.0
	// allCoresLimit is the fraction of all cores the driver may use by
	// itself before it is close to starving (its own scheduling delays
	// then show up as database latency).
	allCoresLimit = 0.8
)

// Assess judges whether the driver, not the database, may have limited
// throughput, from the figures [Self.Stop] produced, and sets d.DriverBound
// and d.DriverBoundNote (one line with the figures; empty when not flagged).
// dbLocal tells whether the database runs on this machine.
//
// The driver's CPU use in cores is DriverSharePct x MachineBusyPct x Cores.
// The run is flagged when any of these holds:
//
//  1. dbLocal and the driver used more than 0.5 core per core left to the
//     database (Cores minus the driver's cores). With a remote database its
//     core count is unknown here and this rule does not apply.
//  2. The machine was saturated (more than 90% busy) and the driver took
//     more than 40% of all busy CPU.
//  3. The driver alone used more than 80% of all cores.
//
// A run where the database does the work (small driver share, driver well
// under a third of the cores) is not flagged. When the machine figures are
// missing (MachineBusyPct or Cores zero, e.g. off Linux) Assess clears the
// verdict and writes nothing. For an embedded database (SQLite) the engine
// runs inside the driver's process, so its CPU counts as the driver's and
// this verdict does not separate the two; callers should say so or skip it.
func Assess(d *results.Driver, dbLocal bool) {
	d.DriverBound, d.DriverBoundNote = false, ""
	if d.Cores <= 0 || d.MachineBusyPct <= 0 {
		return
	}
	cores := float64(d.Cores)
	driverCores := d.DriverSharePct / 100 * d.MachineBusyPct / 100 * cores

	var reason string
	switch {
	case dbLocal && driverCores > perDBCoreLimit*(cores-driverCores):
		reason = fmt.Sprintf("more than %.1f core per core left to the database", perDBCoreLimit)
	case d.MachineBusyPct > saturatedBusyPct && d.DriverSharePct > saturatedSharePct:
		reason = fmt.Sprintf("machine over %.0f%% busy with the driver taking over %.0f%% of it", saturatedBusyPct, saturatedSharePct)
	case driverCores > allCoresLimit*cores:
		reason = fmt.Sprintf("driver alone above %.0f%% of all cores", allCoresLimit*100)
	default:
		return
	}
	d.DriverBound = true
	d.DriverBoundNote = fmt.Sprintf("driver-bound? benchpress used %.2f of %d cores (%.0f%% of all busy CPU) "+
		"while the machine was %.0f%% busy: the load generator, not the database, may be limiting throughput (%s)",
		driverCores, d.Cores, d.DriverSharePct, d.MachineBusyPct, reason)
}
