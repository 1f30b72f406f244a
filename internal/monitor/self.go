package monitor

import (
	"os"
	"runtime"
	"time"

	"benchpress/internal/results"
)

// Self accounts for the driver process's own resource use over a
// measurement window. Create it with [StartSelf] when the window opens,
// call [Self.Close] when it closes and [Self.Stop] for the figures (Stop
// alone ends the window at its own call). A Self is not safe for
// concurrent use, but Stop does not change it and may be called more than
// once.
type Self struct {
	start selfSnapshot
	end   *selfSnapshot
}

// Close takes the window's closing reading: Stop's figures end here, not
// at Stop's call, so the drain of the transactions in flight (up to 30 s of
// a mostly idle machine at 2048 terminals), the result's assembly and the
// server counters' reading after the window neither dilute the machine's
// busy share nor the driver's. Only the first call counts.
func (s *Self) Close() {
	if s.end == nil {
		end := takeSelfSnapshot()
		s.end = &end
	}
}

// selfSnapshot is one reading of the process and machine counters.
type selfSnapshot struct {
	wall      time.Time
	userS     float64 // process user CPU seconds
	sysS      float64 // process system CPU seconds
	maxRSS    uint64  // process peak RSS in bytes (lifetime)
	processOK bool
	machine   CPUTimes // /proc/stat, jiffies
	machineOK bool
	gc        gcReading // runtime's CPU classes (runtime/metrics), as of the last GC's end
	gcOK      bool
	procs     int // GOMAXPROCS
}

// StartSelf takes the baseline: process user and system CPU time
// (getrusage), machine CPU time over all cores (/proc/stat) and the wall
// clock. It never fails; figures that cannot be read are reported as zero
// by Stop.
func StartSelf() *Self {
	return &Self{start: takeSelfSnapshot()}
}

// Stop returns the driver's figures over the window from StartSelf to
// Close (or to this call when Close was not called); txns and stmts are the transactions and
// statements completed in that window.
//
//   - CPUUserS, CPUSysS: process CPU seconds used in the window.
//   - CPUPerTxnUS: (user+sys) microseconds per transaction (0 if txns <= 0);
//     CPUPerStmtUS likewise per statement (0, hence omitted, if stmts <= 0).
//   - PeakRSSMB: the larger of ru_maxrss and /proc/self/status VmHWM, in MiB.
//     It is the process's peak since it started, not only in the window.
//   - MachineBusyPct: busy share of all cores' time, 100 = every core busy.
//   - DriverSharePct: driver CPU time / machine busy CPU time, in percent.
//   - Cores: cores counted in /proc/stat, else runtime.NumCPU().
//   - GCSharePct: the garbage collector's share of the process's busy
//     processor time in the window, from the runtime's own accounting
//     (runtime/metrics /cpu/classes/gc/total over total minus idle; see
//     gcSharePct for the window it covers); GCCycles the GC cycles that
//     ended in the window (0: the share is 0 because none ran, not
//     measured as 0).
//
// DriverBound and DriverBoundNote are left empty; see [Assess].
func (s *Self) Stop(txns, stmts int64) results.Driver {
	var end selfSnapshot
	if s.end != nil {
		end = *s.end
	} else {
		end = takeSelfSnapshot()
	}
	return selfFigures(s.start, end, txns, stmts, runtime.NumCPU())
}

func takeSelfSnapshot() selfSnapshot {
	var snap selfSnapshot
	snap.userS, snap.sysS, snap.maxRSS, snap.processOK = processCPU()
	if t, err := readProcStat(); err == nil {
		snap.machine, snap.machineOK = t, true
	}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		if hwm, err := ParseVmHWM(string(b)); err == nil {
			snap.maxRSS = max(snap.maxRSS, hwm)
		}
	}
	snap.gc, snap.gcOK = gcCPU()
	snap.procs = runtime.GOMAXPROCS(0)
	snap.wall = time.Now()
	return snap
}

// selfFigures computes the window's figures from two snapshots. numCPU is
// the fallback core count when /proc/stat gave none.
func selfFigures(a, b selfSnapshot, txns, stmts int64, numCPU int) results.Driver {
	var d results.Driver
	d.Cores = numCPU
	if b.machineOK && b.machine.Cores > 0 {
		d.Cores = b.machine.Cores
	}
	d.PeakRSSMB = float64(b.maxRSS) / (1 << 20)
	if a.processOK && b.processOK {
		d.CPUUserS = max(0, b.userS-a.userS)
		d.CPUSysS = max(0, b.sysS-a.sysS)
	}
	cpuUS := (d.CPUUserS + d.CPUSysS) * 1e6
	if txns > 0 {
		d.CPUPerTxnUS = cpuUS / float64(txns)
	}
	if stmts > 0 {
		d.CPUPerStmtUS = cpuUS / float64(stmts)
	}
	wallS := b.wall.Sub(a.wall).Seconds()
	if a.gcOK && b.gcOK {
		// The window's Ps: the run's GOMAXPROCS, which is set once the
		// window has opened when it has no warm-up.
		d.GCSharePct = gcSharePct(a.gc, b.gc, wallS, b.procs)
		n := int64(b.gc.cycles - a.gc.cycles)
		d.GCCycles = &n
	}
	if !a.machineOK || !b.machineOK || wallS <= 0 {
		return d
	}
	d.MachineBusyPct = BusyPct(a.machine, b.machine)
	// Busy CPU seconds = busy share x core count x wall time. This avoids
	// needing USER_HZ to turn jiffies into seconds.
	busyS := d.MachineBusyPct / 100 * float64(d.Cores) * wallS
	if busyS > 0 {
		d.DriverSharePct = clamp((d.CPUUserS+d.CPUSysS)/busyS*100, 0, 100)
	}
	return d
}
