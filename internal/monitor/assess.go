package monitor

import (
	"benchpress/internal/results"
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
//
// The rule is [results.AssessDriver], which a merge of partitions that ran
// on one machine (--processes) also applies to their summed figures: each
// process judged alone would see only its own share of the driver's CPU.
func Assess(d *results.Driver, dbLocal bool) { results.AssessDriver(d, dbLocal) }
