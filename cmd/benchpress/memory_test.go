package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestMemoryLimitFor(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "GOMEMLIMIT" {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		name      string
		terminals int
		gomem     string
		want      int64
	}{
		{"floor for few terminals", 8, "", 256 << 20},
		{"floor at 2048", 2048, "", 256 << 20},
		{"grows with terminals", 8192, "", 8192 * 128 << 10},
		{"GOMEMLIMIT wins", 8192, "1GiB", math.MaxInt64},
	}
	for _, tc := range tests {
		if got := memoryLimitFor(tc.terminals, env(tc.gomem)); got != tc.want {
			t.Errorf("%s: limit %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestTuneMemoryRestores(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	restore := tuneMemory(func(string) string { return "" })(4096)
	if got := debug.SetMemoryLimit(-1); got != 4096*128<<10 {
		t.Errorf("limit during the run %d", got)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != prev {
		t.Errorf("limit after the run %d, want %d", got, prev)
	}
}
