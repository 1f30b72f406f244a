package tpcc

import "testing"

func TestChooseCRunLegalForEveryCLoad(t *testing.T) {
	for _, seed := range []uint64{0, 1, 42, 1 << 40} {
		for cLoad := 0; cLoad <= 255; cLoad++ {
			c := ChooseCRun(cLoad, seed)
			d := c - cLoad
			if d < 0 {
				d = -d
			}
			if c < 0 || c > 255 || d < 65 || d > 119 || d == 96 || d == 112 {
				t.Fatalf("seed %d C_load %d: C_run %d (delta %d) is illegal", seed, cLoad, c, d)
			}
			if ChooseCRun(cLoad, seed) != c {
				t.Fatalf("not deterministic for seed %d C_load %d", seed, cLoad)
			}
		}
	}
}

func TestLegalCDelta(t *testing.T) {
	tests := []struct {
		load, run int
		ok        bool
	}{
		{157, 223, true}, // BenchBase: delta 66
		{0, 65, true}, {0, 64, false}, {0, 119, true}, {0, 120, false},
		{0, 96, false}, {0, 112, false}, {200, 104, false}, {200, 88, false},
		{200, 81, true}, {10, 10, false}, {0, 256, false},
	}
	for _, tc := range tests {
		if got := LegalCDelta(tc.load, tc.run); got != tc.ok {
			t.Errorf("LegalCDelta(%d,%d) = %v, want %v", tc.load, tc.run, got, tc.ok)
		}
	}
}
