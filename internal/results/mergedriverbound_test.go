package results

import (
	"math"
	"strings"
	"testing"
)

// TestMergeDriverBound: partitions that ran as local processes of one
// machine (--processes) are judged on their summed driver CPU against the
// machine's busy CPU; partitions on other machines, or whose machine is not
// recorded, keep each partition's own judgement and say so.
func TestMergeDriverBound(t *testing.T) {
	// part is partition i of a run with the given run id on a machine of
	// cores cores, busyPct busy, whose driver used driverCores of them.
	part := func(i int, runID, target string, cores int, busyPct, driverCores float64) *Run {
		d := &Driver{CPUUserS: driverCores * 10, Cores: cores, MachineBusyPct: busyPct}
		if busyPct > 0 {
			d.DriverSharePct = driverCores / (busyPct / 100 * float64(cores)) * 100
		}
		AssessDriver(d, TargetIsLocal(&Run{Target: target}))
		return &Run{
			Target: target, TargetKind: "mysql", Driver: d,
			Partition: &Partition{Index: i, Count: 4, RunID: runID},
		}
	}
	four := func(runID, target string, cores int, busyPct, driverCores float64) []*Run {
		var ps []*Run
		for i := 0; i < 4; i++ {
			ps = append(ps, part(i, runID, target, cores, busyPct, driverCores))
		}
		return ps
	}
	const local = "mysql://bench@127.0.0.1:3306/bench"
	const remote = "mysql://bench@db.example:3306/bench"
	const localID = LocalRunIDPrefix + "20261201T120000-0123456789ab"
	flaggedRemote := four("k8s-run", remote, 2, 90, 0.4)
	flaggedRemote[1] = part(1, "k8s-run", remote, 2, 95, 1.7)
	noFigures := four(localID, local, 2, 90, 0.4)
	noFigures[2].Driver.MachineBusyPct, noFigures[2].Driver.DriverSharePct = 0, 0
	sqlite := four(localID, "sqlite:///tmp/x.db", 2, 90, 0.4)
	for _, p := range sqlite {
		p.TargetKind = "sqlite"
	}
	tests := []struct {
		name     string
		parts    []*Run
		bound    bool
		sharePct float64 // merged DriverSharePct
		note     []string
	}{
		{"4 local processes of 0.4 core on 2 cores, local database", four(localID, local, 2, 90, 0.4), true, 1.6 / 1.8 * 100,
			[]string{"all 4 partitions together (local processes on one machine): driver-bound? benchpress used 1.60 of 2 cores", "per core left to the database"}},
		{"4 local processes, light, remote database", four(localID, remote, 8, 30, 0.1), false, 0.4 / 2.4 * 100, nil},
		{"4 local processes of 0.5 core on 2 cores, remote database", four(localID, remote, 2, 100, 0.5), true, 100,
			[]string{"all 4 partitions together", "over 90% busy"}},
		{"other machines: each judged alone", four("k8s-run", local, 2, 90, 0.4), false, 0.4 / 1.8 * 100, nil},
		{"other machines, one flagged", flaggedRemote, true, 1.7 / 1.9 * 100,
			[]string{"partition 1: driver-bound? benchpress used 1.70 of 2 cores", "each partition judged on its own load machine"}},
		{"local run id but a partition without machine figures", noFigures, false, 0.4 / 1.8 * 100, nil},
		{"local processes on embedded SQLite: no verdict", sqlite, false, 0.4 / 1.8 * 100, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := mergeDriver(tc.parts, 1000)
			if d.DriverBound != tc.bound {
				t.Fatalf("DriverBound = %v, want %v (note %q)", d.DriverBound, tc.bound, d.DriverBoundNote)
			}
			if math.Abs(d.DriverSharePct-tc.sharePct) > 1e-6 {
				t.Errorf("DriverSharePct = %v, want %v", d.DriverSharePct, tc.sharePct)
			}
			if !tc.bound && d.DriverBoundNote != "" {
				t.Errorf("note = %q, want none", d.DriverBoundNote)
			}
			for _, want := range tc.note {
				if !strings.Contains(d.DriverBoundNote, want) {
					t.Errorf("note = %q, want it to contain %q", d.DriverBoundNote, want)
				}
			}
		})
	}
}

func TestTargetIsLocal(t *testing.T) {
	for _, tc := range []struct {
		kind, target string
		want         bool
	}{
		{"sqlite", "sqlite:///tmp/x.db", true},
		{"mysql", "mysql://bench@127.0.0.1:3306/bench", true},
		{"postgres", "postgres://bench@localhost/bench", true},
		{"postgres", "postgres://bench@[::1]:5432/bench", true},
		{"mysql", "mysql://bench@db1:3306,127.0.0.1:3307/bench", true},
		{"mysql", "mysql://bench@db.example:3306/bench", false},
	} {
		if got := TargetIsLocal(&Run{TargetKind: tc.kind, Target: tc.target}); got != tc.want {
			t.Errorf("TargetIsLocal(%s) = %v, want %v", tc.target, got, tc.want)
		}
	}
}
