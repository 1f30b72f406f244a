package monitor

import (
	"net"

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

// TargetIsLocal reports whether the database shares this machine's CPUs:
// what the result tells (results.TargetIsLocal: embedded SQLite,
// localhost, a loopback address, a Unix socket), or a target host that is
// one of this machine's interface addresses.
func TargetIsLocal(run *results.Run) bool {
	if results.TargetIsLocal(run) {
		return true
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	var local []net.IP
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok {
			local = append(local, ipn.IP)
		}
	}
	for _, h := range results.TargetHosts(run.Target) {
		if hostIsOwn(h, local) {
			return true
		}
	}
	return false
}

// hostIsOwn reports whether host (no port) is one of the addresses local.
func hostIsOwn(host string, local []net.IP) bool {
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	for _, l := range local {
		if l.Equal(ip) {
			return true
		}
	}
	return false
}
