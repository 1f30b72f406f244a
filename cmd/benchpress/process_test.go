package main

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"testing"

	"benchpress/internal/cli"
)

func env(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

func TestMemoryLimitFor(t *testing.T) {
	tests := []struct {
		name      string
		terminals int
		getenv    func(string) string
		want      int64
	}{
		{"floor for few terminals", 8, env(), 256 << 20},
		{"floor at 2048", 2048, env(), 256 << 20},
		{"grows with terminals", 8192, env(), 8192 * 128 << 10},
		{"GOMEMLIMIT wins", 8192, env("GOMEMLIMIT", "1GiB"), math.MaxInt64},
	}
	for _, tc := range tests {
		if got := memoryLimitFor(tc.terminals, tc.getenv); got != tc.want {
			t.Errorf("%s: limit %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestTuneProcessRestores(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	restore := tuneProcess(env())(cli.ProcessPlan{Terminals: 4096})
	if got := debug.SetMemoryLimit(-1); got != 4096*128<<10 {
		t.Errorf("limit during the run %d", got)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != prev {
		t.Errorf("limit after the run %d, want %d", got, prev)
	}
	restore = tuneProcess(env("GOMEMLIMIT", "1GiB"))(cli.ProcessPlan{Terminals: 4096})
	if got := debug.SetMemoryLimit(-1); got != prev {
		t.Errorf("limit with GOMEMLIMIT set %d, want it untouched (%d)", got, prev)
	}
	restore()
}

func TestProcsFor(t *testing.T) {
	tests := []struct {
		name    string
		plan    cli.ProcessPlan
		current int
		getenv  func(string) string
		want    int
	}{
		{"poller leaves the default", cli.ProcessPlan{Terminals: 128}, 2, env(), 0},
		{"blocking: a P per terminal and spares", cli.ProcessPlan{Terminals: 128, BlockingIO: true}, 2, env(), 128 + cli.SpareProcs},
		{"blocking, yielding: a P per terminal, no spare", cli.ProcessPlan{Terminals: 8, BlockingIO: true, Yield: true}, 2, env(), 8},
		{"blocking, enough Ps already", cli.ProcessPlan{Terminals: 2, BlockingIO: true}, 64, env(), 0},
		{"blocking, yielding, enough Ps already", cli.ProcessPlan{Terminals: 8, BlockingIO: true, Yield: true}, 8, env(), 0},
		{"GOMAXPROCS in the environment wins", cli.ProcessPlan{Terminals: 128, BlockingIO: true}, 2, env("GOMAXPROCS", "2"), 0},
	}
	for _, tc := range tests {
		if got := procsFor(tc.plan, tc.current, tc.getenv); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// A blocking plan that falls back to the poller (GOMAXPROCS pinned in the
// environment below the terminals) keeps the default GC.
func TestTuneProcessPinnedProcsKeepGC(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	gcBefore := debug.SetGCPercent(100)
	defer debug.SetGCPercent(gcBefore)
	restore := tuneProcess(env("GOMAXPROCS", fmt.Sprint(before)))(cli.ProcessPlan{Terminals: before + 10, BlockingIO: true})
	defer restore()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("GOMAXPROCS %d, want the environment's %d", got, before)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC %d on a run that uses the poller, want the default 100", got)
	}
}

func TestTuneProcessRestoresProcs(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	gcBefore := debug.SetGCPercent(100)
	debug.SetGCPercent(gcBefore)
	restore := tuneProcess(env())(cli.ProcessPlan{Terminals: before + 10, BlockingIO: true})
	if got := runtime.GOMAXPROCS(0); got != before+10+cli.SpareProcs {
		t.Errorf("GOMAXPROCS during a blocking run %d, want %d", got, before+10+cli.SpareProcs)
	}
	if got := debug.SetGCPercent(100); got != blockingGCPercent {
		t.Errorf("GOGC during a blocking run %d, want %d", got, blockingGCPercent)
	}
	debug.SetGCPercent(blockingGCPercent)
	restore()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("GOMAXPROCS after the run %d, want %d", got, before)
	}
	if got := debug.SetGCPercent(gcBefore); got != gcBefore {
		t.Errorf("GOGC after the run %d, want %d", got, gcBefore)
	}
}
