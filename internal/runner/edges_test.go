package runner

import (
	"testing"
	"time"
)

// A terminal nudges the ticker only once the armed edge has passed, never
// blocks (one pending nudge), and nothing after the edges are disarmed.
func TestPhaseEdges(t *testing.T) {
	e := newPhaseEdges()
	t0 := time.Unix(1000, 0)
	pending := func() bool {
		select {
		case <-e.nudge:
			return true
		default:
			return false
		}
	}
	for _, tc := range []struct {
		name string
		arm  time.Time // zero: disarm
		now  time.Time
		want bool
	}{
		{"before the edge", t0, t0.Add(-time.Nanosecond), false},
		{"at the edge", t0, t0, true},
		{"after the edge", t0, t0.Add(time.Second), true},
		{"disarmed", time.Time{}, t0.Add(time.Hour), false},
	} {
		e.set(tc.arm)
		e.passed(tc.now)
		e.passed(tc.now) // a second terminal: must not block
		if got := pending(); got != tc.want {
			t.Errorf("%s: nudged %v, want %v", tc.name, got, tc.want)
		}
		if pending() {
			t.Errorf("%s: more than one nudge pending", tc.name)
		}
	}
}
