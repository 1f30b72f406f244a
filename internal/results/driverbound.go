package results

import (
	"fmt"
	"net"
	"strings"
)

// TargetIsLocal reports whether run's database shares the load machine's
// CPUs as far as the result itself tells: embedded SQLite, or a target URL
// (redacted: user-info optional, hosts separated by commas) naming
// localhost, a loopback address or no host (a Unix socket). The machine's
// own addresses are not in a result (a merge may run elsewhere); the live
// run's check (monitor.TargetIsLocal) adds them.
func TargetIsLocal(run *Run) bool {
	if run.TargetKind == "sqlite" {
		return true
	}
	for _, h := range TargetHosts(run.Target) {
		if HostIsLoopback(h) {
			return true
		}
	}
	return false
}

// TargetHosts are the hosts of a target URL, ports removed (read here, not
// with target.Parse: results, and the reports that read them, link no
// database driver; TestReportLinksNoDatabaseDriver): the part after
// "://" up to the path or query, after the user-info's last '@', split at
// commas; one empty host when the URL names none (a Unix socket), nil
// without "://".
func TargetHosts(u string) []string {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return nil
	}
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	var hosts []string
	for _, hp := range strings.Split(rest, ",") {
		if h, _, err := net.SplitHostPort(hp); err == nil {
			hp = h
		}
		hosts = append(hosts, strings.Trim(hp, "[]"))
	}
	return hosts
}

// HostIsLoopback reports whether host (no port) is this machine by name
// or address alone: empty (a Unix socket), localhost or a loopback address.
func HostIsLoopback(host string) bool {
	if host == "" || strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Thresholds of the driver-bound heuristic; see [AssessDriver].
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

// AssessDriver judges whether the driver, not the database, may have
// limited throughput, from its machine figures, and sets d.DriverBound and
// d.DriverBoundNote (one line with the figures; empty when not flagged).
// dbLocal tells whether the database runs on the same machine.
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
// missing (MachineBusyPct or Cores zero, e.g. off Linux) AssessDriver
// clears the verdict and writes nothing. For an embedded database (SQLite)
// the engine runs inside the driver's process, so its CPU counts as the
// driver's and this verdict does not separate the two; callers should say
// so or skip it. It is monitor.Assess's rule, here so that a merge can
// judge the partitions' summed figures.
func AssessDriver(d *Driver, dbLocal bool) {
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
