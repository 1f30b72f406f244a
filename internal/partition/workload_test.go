package partition

import (
	"context"
	"testing"

	"benchpress/internal/target"
	"benchpress/internal/workload"
)

type plainWorkload struct{}

func (plainWorkload) Ops() []string    { return []string{"op"} }
func (plainWorkload) Extras() []string { return nil }
func (plainWorkload) NewTerminal(context.Context, int, int, target.Conn) (workload.Terminal, error) {
	return nil, nil
}

type yieldingWorkload struct {
	plainWorkload
	yield bool
}

func (w yieldingWorkload) YieldBeforeWait() bool { return w.yield }

// TestWrapPassesYieldBeforeWait: a partition of a run yields before its
// reads wait exactly when the whole run would (workload.WaitYielder).
func TestWrapPassesYieldBeforeWait(t *testing.T) {
	tests := []struct {
		name  string
		inner workload.Workload
		want  bool
	}{
		{"opts in", yieldingWorkload{yield: true}, true},
		{"declines", yieldingWorkload{yield: false}, false},
		{"no opinion", plainWorkload{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := workload.YieldsBeforeWait(Wrap(tt.inner, []int{0}, 2)); got != tt.want {
				t.Errorf("YieldsBeforeWait(Wrap(...)) = %v, want %v", got, tt.want)
			}
		})
	}
}
