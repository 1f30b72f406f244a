package tpcc

import (
	"math"
	"testing"
	"time"

	"benchpress/internal/randgen"
)

func TestThinkTime(t *testing.T) {
	mean := 12 * time.Second
	tests := []struct {
		name string
		u    float64
		want time.Duration
	}{
		{"u=1 gives 0", 1, 0},
		{"u=1/e gives the mean", 0.36787944117144233, mean},
		{"tiny u capped at 10x mean", 1e-12, 10 * mean},
		{"u=0 capped", 0, 10 * mean},
		{"9.5x mean is not capped", math.Exp(-9.5), 114 * time.Second},
	}
	for _, tc := range tests {
		got := thinkTime(tc.u, mean)
		if d := got - tc.want; d < -time.Millisecond || d > time.Millisecond {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestWaitTables(t *testing.T) {
	term := &Terminal{}
	want := [NumOps]time.Duration{18 * time.Second, 3 * time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second}
	for op := 0; op < NumOps; op++ {
		if term.Keying(op) != want[op] {
			t.Errorf("keying %s = %v", OpNames[op], term.Keying(op))
		}
	}
}

func newTestRandTPCC() *randgen.Rand { return randgen.New(99, 1) }
