package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
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

func TestProcsFor(t *testing.T) {
	tests := []struct {
		name              string
		terminals, numCPU int
		embedded          bool
		getenv            func(string) string
		want              int
	}{
		{"one terminal", 1, 8, false, env(), 1},
		{"two terminals share a P", 2, 8, false, env(), 1},
		{"three terminals", 3, 8, false, env(), 2},
		{"capped at the CPUs", 128, 8, false, env(), 8},
		{"one CPU", 8, 1, false, env(), 1},
		{"GOMAXPROCS wins", 1, 8, false, env("GOMAXPROCS", "4"), 0},
		{"embedded database keeps every P", 1, 8, true, env(), 0},
	}
	for _, tc := range tests {
		if got := procsFor(tc.terminals, tc.numCPU, tc.embedded, tc.getenv); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestTuneProcessRestores(t *testing.T) {
	prevLimit := debug.SetMemoryLimit(-1)
	prevProcs := runtime.GOMAXPROCS(0)
	restore := tuneProcess(env(), 8)(4096, false)
	if got := debug.SetMemoryLimit(-1); got != 4096*128<<10 {
		t.Errorf("limit during the run %d", got)
	}
	if got := runtime.GOMAXPROCS(0); got != 8 {
		t.Errorf("GOMAXPROCS during the run %d, want 8", got)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != prevLimit {
		t.Errorf("limit after the run %d, want %d", got, prevLimit)
	}
	if got := runtime.GOMAXPROCS(0); got != prevProcs {
		t.Errorf("GOMAXPROCS after the run %d, want %d", got, prevProcs)
	}
}
