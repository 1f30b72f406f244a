package monitor

import (
	"strings"
	"testing"

	"benchpress/internal/results"
)

func TestAssess(t *testing.T) {
	tests := []struct {
		name     string
		cores    int
		busyPct  float64
		sharePct float64
		dbLocal  bool
		want     bool
		reason   string // substring of the note when flagged
	}{
		// Flagged.
		{name: "small box, driver most of the CPU", cores: 2, busyPct: 97, sharePct: 71, dbLocal: true, want: true, reason: "per core left to the database"},
		{name: "local, driver heavy but machine not saturated", cores: 8, busyPct: 60, sharePct: 70, dbLocal: true, want: true, reason: "per core left to the database"},
		{name: "remote, saturated machine, large driver share", cores: 8, busyPct: 95, sharePct: 45, want: true, reason: "over 90% busy"},
		{name: "remote, driver alone near all cores", cores: 4, busyPct: 88, sharePct: 95, want: true, reason: "above 80% of all cores"},
		// Not flagged.
		{name: "local, database is the bottleneck", cores: 16, busyPct: 95, sharePct: 8, dbLocal: true},
		{name: "local, light run", cores: 4, busyPct: 30, sharePct: 20, dbLocal: true},
		{name: "remote, idle loader mostly the driver", cores: 8, busyPct: 20, sharePct: 90},
		{name: "remote, same figures that flag a local run", cores: 8, busyPct: 60, sharePct: 70},
		{name: "remote, saturated by other processes", cores: 8, busyPct: 99, sharePct: 30},
		{name: "no machine figures", cores: 8, busyPct: 0, sharePct: 0, dbLocal: true},
		{name: "no core count", cores: 0, busyPct: 99, sharePct: 99, dbLocal: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &results.Driver{
				Cores: tt.cores, MachineBusyPct: tt.busyPct, DriverSharePct: tt.sharePct,
				// A stale verdict must be replaced.
				DriverBound: !tt.want, DriverBoundNote: "stale",
			}
			Assess(d, tt.dbLocal)
			if d.DriverBound != tt.want {
				t.Fatalf("DriverBound = %v, want %v (note %q)", d.DriverBound, tt.want, d.DriverBoundNote)
			}
			if !tt.want {
				if d.DriverBoundNote != "" {
					t.Errorf("note = %q, want empty", d.DriverBoundNote)
				}
				return
			}
			if !strings.HasPrefix(d.DriverBoundNote, "driver-bound? benchpress used ") ||
				!strings.Contains(d.DriverBoundNote, tt.reason) || strings.Contains(d.DriverBoundNote, "\n") {
				t.Errorf("note = %q, want one line naming %q", d.DriverBoundNote, tt.reason)
			}
		})
	}
}

func TestAssessNoteFigures(t *testing.T) {
	d := &results.Driver{Cores: 2, MachineBusyPct: 97, DriverSharePct: 71}
	Assess(d, true)
	want := "driver-bound? benchpress used 1.38 of 2 cores (71% of all busy CPU) while the machine was 97% busy: " +
		"the load generator, not the database, may be limiting throughput"
	if !strings.HasPrefix(d.DriverBoundNote, want) {
		t.Errorf("note = %q\nwant prefix %q", d.DriverBoundNote, want)
	}
}
