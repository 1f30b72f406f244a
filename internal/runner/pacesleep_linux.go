//go:build linux

package runner

import (
	"syscall"
	"time"
	"unsafe"
)

// threadSleepSupported: threadSleepUntil blocks the thread (Linux).
const threadSleepSupported = true

// threadSleepUntil blocks the calling thread until t in raw nanosleep
// calls, which the runtime does not see: the goroutine keeps its P and no
// other thread is woken. A signal (the runtime's preemption) ends a call
// early; the loop sleeps the rest.
func threadSleepUntil(t time.Time) {
	for {
		d := time.Until(t)
		if d <= 0 {
			return
		}
		ts := syscall.NsecToTimespec(int64(d))
		syscall.RawSyscall(syscall.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), 0, 0)
	}
}
