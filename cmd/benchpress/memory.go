package main

import (
	"math"
	"runtime/debug"
)

// Memory policy for a run (the process-wide part of it lives here, at the
// process edge, not in the runner).
//
// A run's live heap is mostly its sessions (~50 KB each: buffers, prepared
// statements) and the default GOGC lets the heap reach about twice that:
// measured at 2048 TPC-C terminals, peak RSS ~130 MB and the GC under 5 %
// of the driver's CPU without any limit. The soft limit below is a safety
// net that keeps a pathological run near the 256 MB budget for 2048
// terminals and grows with the terminal count (128 KiB each), so a large
// run is never squeezed into continuous collection. GOMEMLIMIT (and GOGC)
// in the environment override it: the Go runtime reads them itself.
const (
	memoryLimitFloor       = 256 << 20
	memoryLimitPerTerminal = 128 << 10
)

// memoryLimitFor returns the soft memory limit for a run of terminals, or
// math.MaxInt64 (no limit) when the user set GOMEMLIMIT.
func memoryLimitFor(terminals int, getenv func(string) string) int64 {
	if getenv("GOMEMLIMIT") != "" {
		return math.MaxInt64
	}
	return max(int64(memoryLimitFloor), int64(terminals)*memoryLimitPerTerminal)
}

// tuneMemory applies the soft memory limit for a run of terminals and
// returns the function that restores the previous one.
func tuneMemory(getenv func(string) string) func(terminals int) func() {
	return func(terminals int) func() {
		limit := memoryLimitFor(terminals, getenv)
		if limit == math.MaxInt64 {
			return func() {}
		}
		prev := debug.SetMemoryLimit(limit)
		return func() { debug.SetMemoryLimit(prev) }
	}
}
