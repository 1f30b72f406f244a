package results

import (
	"strings"
	"testing"
)

// series builds a measured one-second series with the given counts.
func series(counts ...int64) []Interval {
	out := make([]Interval, len(counts))
	for i, n := range counts {
		out[i] = Interval{T: float64(i + 1), DurS: 1, Phase: "measure", Ops: map[string]IntervalOp{"op": {Count: n}}}
	}
	return out
}

func TestJudge(t *testing.T) {
	steady := series(100, 100, 100, 100, 100, 100, 100, 100)
	gap := series(100, 100, 0, 0, 0, 0, 100, 100)
	tests := []struct {
		name    string
		run     Run
		c       Criteria
		verdict string
		reason  string // substring of one reason
	}{
		{"ok", Run{Status: "ok", Summary: Summary{Transactions: 800, SuccessRate: 100, TPS: 100, DurationS: 8}, Series: steady},
			Criteria{}, VerdictOK, ""},
		{"low success", Run{Status: "ok", Summary: Summary{Transactions: 650, Errors: 350, SuccessRate: 65, TPS: 81, DurationS: 8},
			ErrorsByClass: map[string]int64{"resource_limit": 350}, Series: steady}, Criteria{MinSuccessPct: MinSuccessUnset}, VerdictFailed, "success rate 65.00 % is below --min-success 99 %"},
		// --min-success 0 is a bound, not the default: a failover test
		// that expects errors passes with 80 % success.
		{"min success 0", Run{Status: "ok", Summary: Summary{Transactions: 800, Errors: 200, SuccessRate: 80, TPS: 100, DurationS: 8}, Series: steady},
			Criteria{MinSuccessPct: 0}, VerdictOK, ""},
		// 98.996 % rounds to 99.00 but is below 99: never printed as 99.00.
		{"success just below the bound", Run{Status: "ok", Summary: Summary{Transactions: 98996, Errors: 1004, SuccessRate: 98.996, TPS: 100, DurationS: 8}, Series: steady},
			Criteria{MinSuccessPct: 99}, VerdictFailed, "success rate 98.99 % is below --min-success 99 % (1004 errors)"},
		{"custom min success", Run{Status: "ok", Summary: Summary{Transactions: 980, Errors: 20, SuccessRate: 98, TPS: 100, DurationS: 8}, Series: steady},
			Criteria{MinSuccessPct: 95}, VerdictOK, ""},
		{"nothing succeeded", Run{Status: "ok", Summary: Summary{Errors: 10, DurationS: 8}}, Criteria{}, VerdictFailed, "no operation succeeded"},
		{"fatal error", Run{Status: "failed", Error: "permission denied", Summary: Summary{Transactions: 5, SuccessRate: 100, DurationS: 1}},
			Criteria{}, VerdictFailed, "stopped: permission denied"},
		{"outage", Run{Status: "ok", Summary: Summary{Transactions: 400, SuccessRate: 100, TPS: 50, DurationS: 8}, Series: gap},
			Criteria{OutageS: 2}, VerdictDegraded, "no operation completed for 4 s (t = 2..6 s)"},
		{"short gap is no outage", Run{Status: "ok", Summary: Summary{Transactions: 400, SuccessRate: 100, TPS: 50, DurationS: 8}, Series: gap},
			Criteria{OutageS: 5}, VerdictOK, ""},
		{"slow run gap is no outage", Run{Status: "ok", Summary: Summary{Transactions: 4, SuccessRate: 100, TPS: 0.5, DurationS: 8},
			Series: series(1, 1, 0, 0, 0, 0, 1, 1)}, Criteria{OutageS: 2}, VerdictOK, ""},
		{"failed check", Run{Status: "ok", Summary: Summary{Transactions: 800, SuccessRate: 100, TPS: 100, DurationS: 8}, Series: steady,
			Checks: []Check{{Name: "p90 new_order <= 5s"}}}, Criteria{}, VerdictDegraded, "check failed: p90 new_order"},
		{"not judged check", Run{Status: "ok", Summary: Summary{Transactions: 800, SuccessRate: 100, TPS: 100, DurationS: 8}, Series: steady,
			Checks: []Check{{Name: "p90 delivery <= 5s", NotJudged: true}}}, Criteria{}, VerdictOK, ""},
		{"rate missed", Run{Status: "ok", Summary: Summary{Transactions: 800, SuccessRate: 100, TPS: 100, DurationS: 8}, Series: steady},
			Criteria{TargetRate: 1000}, VerdictDegraded, "rate not achieved: 100.0/s of the 1000.0/s target"},
		// 94.96 % of the target is below the 95 % bound: never "95.0 %".
		{"rate just below the bound", Run{Status: "ok", Summary: Summary{Transactions: 7597, SuccessRate: 100, TPS: 949.6, DurationS: 8}, Series: steady,
			Rate: &RateFigures{TargetPerS: 1000, AchievedPerS: 949.6}},
			Criteria{TargetRate: 1000}, VerdictDegraded, "rate not achieved: 949.6/s of the 1000.0/s target (94.96 %)"},
		{"rate met", Run{Status: "ok", Summary: Summary{Transactions: 800, SuccessRate: 100, TPS: 96, DurationS: 8}, Series: steady},
			Criteria{TargetRate: 100}, VerdictOK, ""},
		{"interrupted", Run{Status: "interrupted", Summary: Summary{Transactions: 800, SuccessRate: 100, TPS: 100, DurationS: 1.8}, Series: steady},
			Criteria{}, VerdictDegraded, "interrupted after 1.8 s"},
		{"reconnect failures", Run{Status: "ok", ReconnectFailures: 3, Summary: Summary{Transactions: 800, SuccessRate: 100, TPS: 100, DurationS: 8}, Series: steady},
			Criteria{}, VerdictDegraded, "3 failed reconnect attempt(s)"},
		// 32 sessions killed by an administrator, all re-opened: 99.85 %
		// success is still not a good run.
		{"lost connections", Run{Status: "ok", Reconnects: 32, ErrorsByClass: map[string]int64{"lost_connection": 32},
			ErrorSamples: []ErrorSample{{Class: "deadlock", Message: "Deadlock found"},
				{Class: "lost_connection", Op: "new_order", Message: "new_order: commit: unexpected EOF"},
				{Class: "lost_connection", Code: "57P01", Op: "payment", Message: "payment: FATAL: terminating connection due to administrator command (SQLSTATE 57P01)"}},
			Summary: Summary{Transactions: 21000, Errors: 32, SuccessRate: 99.85, TPS: 100, DurationS: 8}, Series: steady},
			Criteria{}, VerdictDegraded, "lost connections: 32 session(s) lost in the measurement window, 32 re-opened; first: payment: FATAL: terminating connection due to administrator command (SQLSTATE 57P01)"},
		// A warm-up loss (a server still opening 2048 sessions) is not the
		// window's first: the window's own message is quoted.
		{"lost connections after a warm-up loss", Run{Status: "ok", Reconnects: 1, ErrorsByClass: map[string]int64{"lost_connection": 1},
			ErrorSamples: []ErrorSample{{Class: "lost_connection", Code: "1040", Op: "payment", Message: "payment: connect: Too many connections", Phase: PhaseWarmup},
				{Class: "lost_connection", Op: "new_order", Message: "new_order: commit: unexpected EOF", Phase: PhaseWindow}},
			Summary: Summary{Transactions: 21000, Errors: 1, SuccessRate: 99.99, TPS: 100, DurationS: 8}, Series: steady},
			Criteria{}, VerdictDegraded, "re-opened; first: new_order: commit: unexpected EOF"},
		{"lost connections not re-opened", Run{Status: "ok", Reconnects: 1, ReconnectFailures: 40, ErrorsByClass: map[string]int64{"lost_connection": 4},
			ErrorSamples: []ErrorSample{{Class: "lost_connection", Op: "payment", Message: "payment: commit: unexpected EOF"}},
			Summary:      Summary{Transactions: 21000, Errors: 4, SuccessRate: 99.9, TPS: 100, DurationS: 8}, Series: steady},
			Criteria{}, VerdictDegraded, "lost connections: 4 session(s) lost in the measurement window, 1 re-opened, 40 failed reconnect attempt(s); first: payment: commit: unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.run
			Judge(&r, tt.c)
			if r.Verdict != tt.verdict {
				t.Fatalf("verdict %q (%v), want %q", r.Verdict, r.VerdictReasons, tt.verdict)
			}
			bound := tt.c.MinSuccessPct
			if bound < 0 {
				bound = DefaultMinSuccessPct
			}
			if r.MinSuccessPct == nil || *r.MinSuccessPct != bound {
				t.Fatalf("saved bound %v, want %g", r.MinSuccessPct, bound)
			}
			if tt.reason == "" {
				if len(r.VerdictReasons) != 0 {
					t.Fatalf("unexpected reasons %v", r.VerdictReasons)
				}
				return
			}
			for _, got := range r.VerdictReasons {
				if strings.Contains(got, tt.reason) {
					return
				}
			}
			t.Fatalf("reasons %q lack %q", r.VerdictReasons, tt.reason)
		})
	}
}

func TestRatePct(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{98.996, "98.99"}, // below 99: never "99.00"
		{99.99, "99.99"},  // not cut to 99.98 by the binary fraction
		{99.9999999, "99.99"},
		{99, "99.00"},
		{99.5, "99.50"},
		{100, "100.00"},
		{0, "0.00"},
		{65, "65.00"},
		{0.0001, "0.00"},
	}
	for _, tc := range tests {
		if got := RatePct(tc.v); got != tc.want {
			t.Errorf("RatePct(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
