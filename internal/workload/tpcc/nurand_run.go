package tpcc

import "benchpress/internal/randgen"

// LegalCDelta reports whether C-run is a legal run-time constant for C_LAST
// given the load-time constant (clause 2.1.6.1, §1.5.4): both in [0, 255] and
// delta = |cRun − cLoad| in [65, 119], delta ≠ 96 and ≠ 112.
func LegalCDelta(cLoad, cRun int) bool {
	if cRun < 0 || cRun > 255 || cLoad < 0 || cLoad > 255 {
		return false
	}
	d := cRun - cLoad
	if d < 0 {
		d = -d
	}
	return d >= 65 && d <= 119 && d != 96 && d != 112
}

// ChooseCRun picks the run-time C for C_LAST deterministically from seed by
// rejection sampling over random(0, 255), as BenchmarkSQL does. go-tpc and
// cockroach reuse the load C, which breaks the delta rule; we never do.
func ChooseCRun(cLoad int, seed uint64) int {
	r := randgen.New(seed, 0xC1A57) // a stream of its own
	for i := 0; i < 1<<16; i++ {
		if c := r.Range(0, 255); LegalCDelta(cLoad, c) {
			return c
		}
	}
	// Unreachable for cLoad in [0, 255] (every load value has ≥ 40 legal
	// run values); fall back to a deterministic scan.
	for c := 0; c <= 255; c++ {
		if LegalCDelta(cLoad, c) {
			return c
		}
	}
	return cLoad
}
