package cli

import (
	"strings"
	"testing"

	"benchpress/internal/target"
)

// TestConnBudgetShortfall: a process's terminals are checked beside the
// sessions open now; a partition's also as the whole run against the
// limit itself (the other partitions' sessions may be open already).
func TestConnBudgetShortfall(t *testing.T) {
	mdb := target.ConnLimit{Server: 500, ServerDesc: "max_connections 500", ServerInUse: 3}
	cases := []struct {
		name                        string
		lim                         target.ConnLimit
		terminals, whole, endpoints int
		want                        []string // substrings; none: fits
	}{
		{"fits", mdb, 400, 0, 1, nil},
		{"own share over", mdb, 499, 0, 1, []string{"499 terminal(s) need 499 session(s), but the server admits 500 (max_connections 500) and 2 other session(s) are open"}},
		{"partition fits, whole run over", mdb, 300, 600, 1, []string{"the whole run's 600 terminal(s) need 600 session(s), but the server admits 500 in all (max_connections 500)"}},
		{"partition and whole run fit", mdb, 250, 500, 1, nil},
		// The other partition's 250 sessions already open: this one's 250
		// do not fit beside them, and the whole run's 500 fit the limit.
		{"others open", target.ConnLimit{Server: 500, ServerDesc: "max_connections 500", ServerInUse: 253}, 250, 500, 1, []string{"250 terminal(s) need 250 session(s)"}},
		{"user cap", target.ConnLimit{Server: 4200, ServerDesc: "max_connections 4200", ServerInUse: 1, User: 100, UserDesc: "max_user_connections 100", UserInUse: 1}, 80, 160, 1,
			[]string{"the whole run's 160 terminal(s) need 160 session(s), but the user may open 100 in all (max_user_connections 100)"}},
		{"over endpoints", mdb, 300, 1200, 2, []string{"the whole run's 1200 terminal(s) over 2 endpoints need 600 session(s) on each, but on db1:3306 the server admits 500 in all"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := newConnBudget(c.lim, c.terminals, c.whole, c.endpoints, "db1:3306").shortfall()
			if len(c.want) == 0 && got != "" {
				t.Fatalf("shortfall %q, want none", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("shortfall %q lacks %q", got, w)
				}
			}
			if strings.Contains(got, "whole run") != (len(c.want) > 0 && strings.Contains(strings.Join(c.want, ""), "whole run")) {
				t.Errorf("shortfall %q: whole-run sentence where not wanted (or missing)", got)
			}
		})
	}
}

// TestConnBudgetWholeRunWarnedOnce: the whole run's shortfall is the same
// in every partition, so only partition 0 warns of it (quietWhole in the
// others); every partition's own shortfall, and the figures a refusal's
// hint gives, stay.
func TestConnBudgetWholeRunWarnedOnce(t *testing.T) {
	lim := target.ConnLimit{Server: 500, ServerDesc: "max_connections 500", ServerInUse: 253}
	for _, quiet := range []bool{false, true} {
		b := newConnBudget(lim, 250, 600, 1, "db1:3306")
		b.quietWhole = quiet
		w := b.warning()
		if !strings.Contains(w, "250 terminal(s) need 250 session(s)") {
			t.Errorf("quietWhole %v: warning %q lacks the partition's own shortfall", quiet, w)
		}
		if got := strings.Contains(w, "the whole run's"); got == quiet {
			t.Errorf("quietWhole %v: warning %q says the whole run's shortfall: %v", quiet, w, got)
		}
		if s := b.shortfall(); !strings.Contains(s, "the whole run's 600 terminal(s)") {
			t.Errorf("quietWhole %v: shortfall (a refusal's hint) %q lacks the whole run", quiet, s)
		}
	}
}
