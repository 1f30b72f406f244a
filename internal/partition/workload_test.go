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

type longTripsWorkload struct {
	plainWorkload
	long bool
}

func (w longTripsWorkload) LongRoundTrips() bool { return w.long }

// TestWrapPassesLongRoundTrips: a partition of a run waits for its replies
// exactly as the whole run would (workload.LongRoundTrips).
func TestWrapPassesLongRoundTrips(t *testing.T) {
	tests := []struct {
		name  string
		inner workload.Workload
		want  bool
	}{
		{"opts in", longTripsWorkload{long: true}, true},
		{"declines", longTripsWorkload{long: false}, false},
		{"no opinion", plainWorkload{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := workload.HasLongRoundTrips(Wrap(tt.inner, []int{0}, 2)); got != tt.want {
				t.Errorf("HasLongRoundTrips(Wrap(...)) = %v, want %v", got, tt.want)
			}
		})
	}
}
