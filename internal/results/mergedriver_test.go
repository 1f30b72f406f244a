package results

import (
	"math"
	"testing"
)

// TestMergeDriverGC: the merged GC share is the partitions' weighted by
// their CPU, its cycles summed, and absent when a partition did not count
// them (a result written before gc_cycles existed).
func TestMergeDriverGC(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	part := func(cpu, share float64, cycles *int64) *Run {
		return &Run{Driver: &Driver{CPUUserS: cpu, GCSharePct: share, GCCycles: cycles}}
	}
	tests := []struct {
		name      string
		parts     []*Run
		share     float64
		cycles    *int64
		hasCycles bool
	}{
		{"weighted by CPU", []*Run{part(3, 1, n(2)), part(1, 5, n(1))}, (3*1 + 1*5) / 4.0, n(3), true},
		{"none ran", []*Run{part(2, 0, n(0)), part(2, 0, n(0))}, 0, n(0), true},
		{"a partition without the count", []*Run{part(2, 1, n(4)), part(2, 3, nil)}, 2, nil, false},
		{"no CPU", []*Run{part(0, 0, n(0))}, 0, n(0), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := mergeDriver(tc.parts, 100)
			if math.Abs(d.GCSharePct-tc.share) > 1e-9 {
				t.Errorf("GCSharePct %v, want %v", d.GCSharePct, tc.share)
			}
			if (d.GCCycles != nil) != tc.hasCycles || (tc.hasCycles && *d.GCCycles != *tc.cycles) {
				t.Errorf("GCCycles %v, want %v", d.GCCycles, tc.cycles)
			}
		})
	}
}
