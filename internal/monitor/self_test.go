package monitor

import (
	"math"
	"runtime"
	"testing"
	"time"
)

func TestSelfFigures(t *testing.T) {
	t0 := time.Unix(1000, 0)
	a := selfSnapshot{wall: t0, userS: 10, sysS: 2, processOK: true,
		machine: CPUTimes{Busy: 1000, Idle: 1000, Cores: 4}, machineOK: true,
		gc: gcReading{gcS: 1, busyS: 50, totalS: 80, cycles: 7}, gcOK: true, procs: 8}
	// 10 s on 4 cores at USER_HZ 100 = 4000 jiffies; half of them busy =
	// 20 busy CPU seconds, of which the driver used 4 (3 user + 1 sys).
	b := selfSnapshot{wall: t0.Add(10 * time.Second), userS: 13, sysS: 3, maxRSS: 64 << 20, processOK: true,
		machine: CPUTimes{Busy: 3000, Idle: 3000, Cores: 4}, machineOK: true,
		gc: gcReading{gcS: 1.2, busyS: 54, totalS: 88, cycles: 9}, gcOK: true, procs: 8}
	// GC: 0.2 P-seconds over a window of 10 s at 8 Ps whose last GC-to-GC
	// span was half busy (4 of 8 P-seconds): 0.2 of 40 = 0.5 %.
	d := selfFigures(a, b, 2000, 8000, 99)
	checks := []struct {
		name      string
		got, want float64
	}{
		{"CPUUserS", d.CPUUserS, 3},
		{"CPUSysS", d.CPUSysS, 1},
		{"CPUPerTxnUS", d.CPUPerTxnUS, 2000},
		{"CPUPerStmtUS", d.CPUPerStmtUS, 500},
		{"PeakRSSMB", d.PeakRSSMB, 64},
		{"MachineBusyPct", d.MachineBusyPct, 50},
		{"DriverSharePct", d.DriverSharePct, 20},
		{"Cores", float64(d.Cores), 4},
		{"GCSharePct", d.GCSharePct, 0.5},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if d.GCCycles == nil || *d.GCCycles != 2 {
		t.Errorf("GCCycles = %v, want 2 (7 -> 9)", d.GCCycles)
	}
	// Without the runtime's readings the cycle count is absent, not 0.
	a.gcOK = false
	if d := selfFigures(a, b, 2000, 8000, 99); d.GCCycles != nil || d.GCSharePct != 0 {
		t.Errorf("without GC readings: GCCycles %v, GCSharePct %v", d.GCCycles, d.GCSharePct)
	}
	a.gcOK = true

	// No /proc: machine figures stay zero, the runtime's core count is used.
	a.machineOK, b.machineOK = false, false
	d = selfFigures(a, b, 0, 0, 6)
	if d.Cores != 6 || d.MachineBusyPct != 0 || d.DriverSharePct != 0 || d.CPUPerTxnUS != 0 || d.CPUPerStmtUS != 0 {
		t.Errorf("without /proc or counts: %+v", d)
	}
}

// TestGCSharePct: the share is of the window's P time, whatever span the
// runtime's end-of-cycle readings cover.
func TestGCSharePct(t *testing.T) {
	tests := []struct {
		name  string
		a, b  gcReading
		wallS float64
		procs int
		want  float64
	}{
		// The span is the window: the span's own ratio.
		{"span is the window", gcReading{1, 50, 80, 0}, gcReading{1.2, 54, 88, 0}, 1, 8, 5},
		// One cycle, 22 ms after start, at 132 Ps, nearly all busy (blocking
		// sockets): 0.37 P-s of GC over 2.9 P-s is 12.8 % of the span and
		// 0.03 % of a 10 s window.
		{"one early cycle", gcReading{0, 0, 0, 0}, gcReading{0.37, 2.9, 2.904, 0}, 10, 132, 0.37 / (2.9 / 2.904 * 1320) * 100},
		// The span reaches back into a warm-up: the window's P time counts,
		// not the warm-up's.
		{"span longer than the window", gcReading{0, 0, 0, 0}, gcReading{1, 200, 400, 0}, 10, 20, 1.0 / 100 * 100},
		{"no cycle ended in the window", gcReading{1, 50, 80, 0}, gcReading{1, 50, 80, 0}, 10, 8, 0},
		{"no wall time", gcReading{1, 50, 80, 0}, gcReading{1.2, 54, 88, 0}, 0, 8, 0},
		{"all idle", gcReading{1, 50, 80, 0}, gcReading{1.2, 50, 88, 0}, 10, 8, 0},
		{"clamped", gcReading{0, 0, 0, 0}, gcReading{100, 1, 1, 0}, 1, 1, 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := gcSharePct(tc.a, tc.b, tc.wallS, tc.procs); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("gcSharePct = %v, want %v", got, tc.want)
			}
		})
	}
}

// burn spins on the CPU for about dur.
func burn(dur time.Duration) uint64 {
	var x uint64 = 1
	for end := time.Now().Add(dur); time.Now().Before(end); {
		for range 10000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	return x
}

var sink uint64

func TestStartSelfStopSmoke(t *testing.T) {
	s := StartSelf()
	sink = burn(300 * time.Millisecond)
	const txns, stmts = 1000, 4000
	d := s.Stop(txns, stmts)
	if d.CPUUserS <= 0 {
		t.Fatalf("CPUUserS = %v after burning CPU, want > 0 (%+v)", d.CPUUserS, d)
	}
	cpuUS := (d.CPUUserS + d.CPUSysS) * 1e6
	if math.Abs(d.CPUPerTxnUS-cpuUS/txns) > 1e-6 || math.Abs(d.CPUPerStmtUS-cpuUS/stmts) > 1e-6 {
		t.Errorf("per-txn %v / per-stmt %v, want %v / %v", d.CPUPerTxnUS, d.CPUPerStmtUS, cpuUS/txns, cpuUS/stmts)
	}
	if d.Cores <= 0 || d.PeakRSSMB <= 0 {
		t.Errorf("Cores %d, PeakRSSMB %v, want > 0", d.Cores, d.PeakRSSMB)
	}
	if runtime.GOOS == "linux" {
		if d.MachineBusyPct <= 0 || d.MachineBusyPct > 100 || d.DriverSharePct <= 0 || d.DriverSharePct > 100 {
			t.Errorf("MachineBusyPct %v, DriverSharePct %v, want in (0, 100]", d.MachineBusyPct, d.DriverSharePct)
		}
	}
	// Stop leaves the baseline alone; a later call covers a longer window.
	if d2 := s.Stop(0, 0); d2.CPUUserS < d.CPUUserS || d2.CPUPerTxnUS != 0 || d2.CPUPerStmtUS != 0 {
		t.Errorf("second Stop = %+v", d2)
	}
}

// TestSelfCloseEndsTheWindow: CPU burnt after Close (the drain, the
// result's assembly) is not the window's.
func TestSelfCloseEndsTheWindow(t *testing.T) {
	s := StartSelf()
	sink = burn(50 * time.Millisecond)
	s.Close()
	closed := s.Stop(1, 0)
	sink = burn(300 * time.Millisecond)
	s.Close() // only the first call counts
	if d := s.Stop(1, 0); d.CPUUserS+d.CPUSysS != closed.CPUUserS+closed.CPUSysS || d.CPUUserS > 0.2 {
		t.Fatalf("after Close: CPU %.3f s, at Close %.3f s: the burn after Close counted", d.CPUUserS+d.CPUSysS, closed.CPUUserS+closed.CPUSysS)
	}
}

// TestGCShareOfGarbage: a window that allocates garbage shows a GC share
// above zero, one that only computes shows (almost) none.
func TestGCShareOfGarbage(t *testing.T) {
	if _, ok := gcCPU(); !ok {
		t.Fatal("runtime/metrics lacks the CPU classes")
	}
	s := StartSelf()
	var keep [][]byte
	for i := range 200000 {
		b := make([]byte, 1024)
		keep = append(keep, b)
		if len(keep) > 1000 {
			keep = keep[:0]
		}
		sink += uint64(b[i%1024])
	}
	runtime.GC()
	d := s.Stop(1, 0)
	if d.GCSharePct <= 0 || d.GCSharePct > 100 {
		t.Fatalf("GC share %.2f %% over a garbage-heavy window, want > 0", d.GCSharePct)
	}
	if d.GCCycles == nil || *d.GCCycles < 1 {
		t.Fatalf("GCCycles %v over a window that ran runtime.GC, want >= 1", d.GCCycles)
	}
}
