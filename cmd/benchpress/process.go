package main

import (
	"math"
	"runtime/debug"
)

// Process settings for a run: the process-wide knobs live here, at the
// process edge, not in the runner. Each run applies them for its terminal
// count and restores them when it ends (a sweep's steps differ).
//
// Memory. A run's live heap is mostly its sessions (~50 KB each: buffers,
// prepared statements) and the default GOGC lets the heap reach about twice
// that: measured at 2048 TPC-C terminals, peak RSS 120-230 MB and the GC a
// few percent of the driver's CPU without any limit. The soft limit is a
// safety net that keeps a pathological run near the 256 MB budget for 2048
// terminals and grows with the terminal count (128 KiB each), so a large
// run is never squeezed into continuous collection. GOMEMLIMIT in the
// environment overrides it (the Go runtime reads it itself), as GOGC and
// GOMAXPROCS set the runtime's other knobs.
//
// GOMAXPROCS is deliberately left at the runtime's default: fewer Ps for a
// few terminals halved the client's context switches per query but also
// halved PostgreSQL point-select throughput at 1-2 threads (the idle Ps'
// spinning threads pick a reply up sooner than a thread blocked in the
// network poller); see docs/benchmarks.md.
const (
	memoryLimitFloor       = 256 << 20
	memoryLimitPerTerminal = 128 << 10
)

// memoryLimitFor returns the soft memory limit for a run of terminals, or
// math.MaxInt64 (leave it) when the user set GOMEMLIMIT.
func memoryLimitFor(terminals int, getenv func(string) string) int64 {
	if getenv("GOMEMLIMIT") != "" {
		return math.MaxInt64
	}
	return max(int64(memoryLimitFloor), int64(terminals)*memoryLimitPerTerminal)
}

// tuneProcess returns the App.TuneProcess hook: it applies the memory limit
// for a run of terminals and returns the function that restores the
// previous one.
func tuneProcess(getenv func(string) string) func(terminals int) func() {
	return func(terminals int) func() {
		limit := memoryLimitFor(terminals, getenv)
		if limit == math.MaxInt64 {
			return func() {}
		}
		prev := debug.SetMemoryLimit(limit)
		return func() { debug.SetMemoryLimit(prev) }
	}
}
