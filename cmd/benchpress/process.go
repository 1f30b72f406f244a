package main

import (
	"math"
	"runtime"
	"runtime/debug"

	"benchpress/internal/cli"
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
// GOMAXPROCS. With blocking sockets (target.SocketBlocking, chosen for up
// to target.BlockingMax terminals) every terminal waiting for a reply sits
// in a raw read on its own thread and keeps its P, so a run needs a P per
// terminal, plus spares for the runner's own goroutines (ticker, watch,
// the database counters' session): GOMAXPROCS max(default, terminals+4;
// cli.ProcessPlan.Procs).
// Terminals whose yields between transactions serve the runner's
// goroutines (cli.ProcessPlan.Yield, target.SharedYield) get exactly a P
// each: an idle P would make every such yield wake a spinning thread
// (measured with bench/floor/gofloor, PostgreSQL point selects, 8
// terminals on 2 vCPUs: one spare P cost 18 % of the throughput against
// none; docs/benchmarks.md, 2026-11-25 night). The other blocking
// terminals keep the spares and yield in place (runner.Config.LocalYield). The Ps of waiting
// terminals cost no CPU. With
// the poller the runtime's default stays: fewer Ps for a few terminals
// halved PostgreSQL point-select throughput at 1-2 threads
// (docs/benchmarks.md). GOMAXPROCS in the environment is left alone.
//
// GOGC. The collector sizes its background work to GOMAXPROCS (a quarter of
// the Ps), so with a P per terminal on a small machine each cycle runs many
// mark threads at once on the cores the server needs, and every cycle stops
// the terminals twice. A blocking run's heap is small (up to 256 sessions),
// so it collects ten times less often (GOGC=1000), still under the soft
// memory limit: measured on PostgreSQL oltp_point_select at 8 threads (pgx
// allocates ~6 objects per query), p99 0.92-0.97 -> 0.58-0.62 ms and TPS
// +18 % (docs/benchmarks.md). GOGC in the environment is left alone.
const (
	memoryLimitFloor       = 256 << 20
	memoryLimitPerTerminal = 128 << 10
	blockingGCPercent      = 1000
)

// memoryLimitFor returns the soft memory limit for a run of terminals, or
// math.MaxInt64 (leave it) when the user set GOMEMLIMIT.
func memoryLimitFor(terminals int, getenv func(string) string) int64 {
	if getenv("GOMEMLIMIT") != "" {
		return math.MaxInt64
	}
	return max(int64(memoryLimitFloor), int64(terminals)*memoryLimitPerTerminal)
}

// procsFor returns the GOMAXPROCS for a run (0: leave the runtime's).
func procsFor(p cli.ProcessPlan, current int, getenv func(string) string) int {
	want := p.Procs()
	if !p.BlockingIO || getenv("GOMAXPROCS") != "" || want <= current {
		return 0
	}
	return want
}

// tuneProcess returns the App.TuneProcess hook: it applies the memory limit
// and GOMAXPROCS for a run of terminals and returns the function that
// restores the previous settings.
func tuneProcess(getenv func(string) string) func(cli.ProcessPlan) func() {
	return func(p cli.ProcessPlan) func() {
		var undo []func()
		if limit := memoryLimitFor(p.Terminals, getenv); limit != math.MaxInt64 {
			prev := debug.SetMemoryLimit(limit)
			undo = append(undo, func() { debug.SetMemoryLimit(prev) })
		}
		if n := procsFor(p, runtime.GOMAXPROCS(0), getenv); n > 0 {
			runtime.GOMAXPROCS(n)
			undo = append(undo, runtime.SetDefaultGOMAXPROCS)
		}
		// Only when the run really blocks: with GOMAXPROCS pinned below
		// the terminals in the environment it falls back to the poller
		// (cli's check after this hook), and its GC stays the default.
		if p.BlockingIO && runtime.GOMAXPROCS(0) >= p.Terminals && getenv("GOGC") == "" {
			prev := debug.SetGCPercent(blockingGCPercent)
			undo = append(undo, func() { debug.SetGCPercent(prev) })
		}
		return func() {
			for _, f := range undo {
				f()
			}
		}
	}
}
