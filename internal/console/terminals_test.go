package console

import (
	"strings"
	"testing"

	"benchpress/internal/results"
)

// TestStalledLine: terminals idle for the whole window and terminals that
// stopped for a long stretch of it are told apart, with their stretch.
func TestStalledLine(t *testing.T) {
	tests := []struct {
		name string
		t    *results.Terminals
		want string
	}{
		{"none", &results.Terminals{Count: 4, StallJudged: true}, ""},
		{"whole window", &results.Terminals{Count: 4, Stalled: 2, StalledTerminals: []int{2, 4}, StalledForS: []float64{20, 20}, StallJudged: true},
			"2 of 4 terminals completed no transaction in the window: 2, 4 STALLED\n"},
		{"part of the window", &results.Terminals{Count: 8, Stalled: 1, StalledPartly: 1, StalledTerminals: []int{5}, StalledForS: []float64{17}, StallJudged: true},
			"1 of 8 terminals completed nothing for a long stretch of the window: 5 (17 s) STALLED\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			StalledLine(&b, &results.Run{Terminals: tc.t})
			if b.String() != tc.want {
				t.Errorf("got %q\nwant %q", b.String(), tc.want)
			}
		})
	}
}
