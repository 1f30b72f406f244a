package workload

import (
	"errors"
	"strings"
	"testing"

	"benchpress/internal/target"
)

// TestStmtBudget: the per-session budget and the refusal, for one process
// and for one partition of a run whose other partitions share the cap.
func TestStmtBudget(t *testing.T) {
	def := target.PreparedStmtLimit{Max: 16382}
	cases := []struct {
		name             string
		lim              target.PreparedStmtLimit
		terminals, whole int
		kinds            int
		wantPer          int
		wantErr          string // "" fits
	}{
		{"one process fits", def, 150, 0, 72, 108, ""},
		{"one process over", def, 300, 0, 72, 54, "300 sessions x 72 prepared statements = 21600"},
		{"in use counts for one process", target.PreparedStmtLimit{Max: 16382, InUse: 8000}, 150, 0, 72, 54, "with 8000 in use"},
		// Two partitions of 150: each fits what is free now, the whole
		// run does not fit the cap.
		{"partition: whole run over", def, 150, 300, 72, 54, "the whole run's 300 sessions (all partitions) x 72 prepared statements = 21600"},
		{"partition: whole run fits", def, 100, 200, 72, 81, ""},
		// The other partitions' statements already in use are not counted
		// twice: the whole-run bound ignores them.
		{"partition: others already in", target.PreparedStmtLimit{Max: 16382, InUse: 7200}, 100, 200, 72, 81, ""},
		{"whole equal to share is one process", def, 150, 150, 72, 108, ""},
		{"TPC-C 2048 over two partitions: 7 each", def, 1024, 2048, 7, 7, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newStmtBudget(c.lim, c.terminals, c.whole)
			if b.per != c.wantPer {
				t.Errorf("per session %d, want %d", b.per, c.wantPer)
			}
			err := b.fits(c.kinds)
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.wantErr != "" && (err == nil || !errors.Is(err, ErrStmtLimit) || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("error %v, want %q", err, c.wantErr)
			}
		})
	}
}
