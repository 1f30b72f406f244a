//go:build !unix

package monitor

// processCPU is not implemented on this system: it reports ok = false.
func processCPU() (userS, sysS float64, maxRSS uint64, ok bool) {
	return 0, 0, 0, false
}
