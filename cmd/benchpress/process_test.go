package main

import (
	"math"
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

func TestTuneProcessRestores(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	restore := tuneProcess(env())(4096)
	if got := debug.SetMemoryLimit(-1); got != 4096*128<<10 {
		t.Errorf("limit during the run %d", got)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != prev {
		t.Errorf("limit after the run %d, want %d", got, prev)
	}
	restore = tuneProcess(env("GOMEMLIMIT", "1GiB"))(4096)
	if got := debug.SetMemoryLimit(-1); got != prev {
		t.Errorf("limit with GOMEMLIMIT set %d, want it untouched (%d)", got, prev)
	}
	restore()
}
