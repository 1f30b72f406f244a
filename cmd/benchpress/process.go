package main

import (
	"math"
	"runtime"
	"runtime/debug"
)

// Process settings for a run: the process-wide knobs live here, at the
// process edge, not in the runner. Each run applies them for its terminal
// count and restores them when it ends (a sweep's steps differ).
//
// Memory. A run's live heap is mostly its sessions (~50 KB each: buffers,
// prepared statements) and the default GOGC lets the heap reach about twice
// that: measured at 2048 TPC-C terminals, peak RSS ~130 MB and the GC a few
// percent of the driver's CPU without any limit. The soft limit is a safety
// net that keeps a pathological run near the 256 MB budget for 2048
// terminals and grows with the terminal count (128 KiB each), so a large
// run is never squeezed into continuous collection.
//
// Processors. A terminal waits on the network most of the time (a client
// spends ~10-20 us of CPU per round trip of 50-100 us or more), so a few
// terminals cannot use a processor each. With more Ps than runnable
// goroutines the scheduler's idle Ps cost wake-ups: every reply readied by
// the network poller starts a spinning thread that finds nothing and
// sleeps again. Measured on PostgreSQL point selects at 1-2 threads, that
// was 2 client context switches per query instead of 1 (sysbench: 1.0) and
// 10-20 % more client CPU per query (docs/benchmarks.md). So a run uses one P
// per two terminals, between 1 and the number of CPUs. Not with an embedded
// database (SQLite), whose engine runs on the terminals' goroutines.
//
// GOMEMLIMIT and GOMAXPROCS in the environment override the respective
// setting (the Go runtime reads them itself); GOGC is the runtime's.
const (
	memoryLimitFloor       = 256 << 20
	memoryLimitPerTerminal = 128 << 10
	terminalsPerProc       = 2
)

// memoryLimitFor returns the soft memory limit for a run of terminals, or
// math.MaxInt64 (leave it) when the user set GOMEMLIMIT.
func memoryLimitFor(terminals int, getenv func(string) string) int64 {
	if getenv("GOMEMLIMIT") != "" {
		return math.MaxInt64
	}
	return max(int64(memoryLimitFloor), int64(terminals)*memoryLimitPerTerminal)
}

// procsFor returns GOMAXPROCS for a run of terminals on numCPU CPUs, or 0
// (leave it) when the user set GOMAXPROCS or the database is embedded.
func procsFor(terminals, numCPU int, embedded bool, getenv func(string) string) int {
	if embedded || getenv("GOMAXPROCS") != "" {
		return 0
	}
	return min(max((terminals+terminalsPerProc-1)/terminalsPerProc, 1), max(numCPU, 1))
}

// tuneProcess returns the App.TuneProcess hook: it applies the memory limit
// and GOMAXPROCS for a run of terminals and returns the function that
// restores the previous settings.
func tuneProcess(getenv func(string) string, numCPU int) func(terminals int, embedded bool) func() {
	return func(terminals int, embedded bool) func() {
		var undo []func()
		if limit := memoryLimitFor(terminals, getenv); limit != math.MaxInt64 {
			prev := debug.SetMemoryLimit(limit)
			undo = append(undo, func() { debug.SetMemoryLimit(prev) })
		}
		if procs := procsFor(terminals, numCPU, embedded, getenv); procs > 0 {
			prev := runtime.GOMAXPROCS(procs)
			undo = append(undo, func() { runtime.GOMAXPROCS(prev) })
		}
		return func() {
			for _, f := range undo {
				f()
			}
		}
	}
}
