//go:build unix

package monitor

import (
	"runtime"
	"syscall"
)

// processCPU returns this process's user and system CPU seconds and its peak
// resident set size in bytes, from getrusage(RUSAGE_SELF).
func processCPU() (userS, sysS float64, maxRSS uint64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, 0, false
	}
	userS = float64(ru.Utime.Sec) + float64(ru.Utime.Usec)/1e6
	sysS = float64(ru.Stime.Sec) + float64(ru.Stime.Usec)/1e6
	maxRSS = uint64(ru.Maxrss)
	if runtime.GOOS != "darwin" && runtime.GOOS != "ios" {
		maxRSS *= 1024 // kilobytes everywhere but Apple's systems
	}
	return userS, sysS, maxRSS, true
}
