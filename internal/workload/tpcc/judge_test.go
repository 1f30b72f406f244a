package tpcc

import (
	"math/rand"
	"strings"
	"testing"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
)

// TestJudgeSampled: a figure is judged only with enough samples, passes
// inside its bounds, and fails outside them only beyond 5σ of the centre.
func TestJudgeSampled(t *testing.T) {
	cases := []struct {
		name   string
		f      AuditFigure
		mean   bool
		pass   bool
		judged bool
		detail string
	}{
		{"lines too few samples", auditFig(9*100, 100, 1, 9.5, 10.5), true, false, false, "360 needed"},
		{"lines inside", auditFig(10*400, 400, 1, 9.5, 10.5), true, true, true, ""},
		// 9.4 over 400 orders: 0.6 from 10 is 3.8σ (σ = 0.158): noise
		{"lines just outside, noise", auditFig(3760, 400, 1, 9.5, 10.5), true, false, false, "within sampling noise"},
		// 9.0 over 400 orders: 6.3σ: a broken generator
		{"lines far outside", auditFig(3600, 400, 1, 9.5, 10.5), true, false, true, "σ from 10"},
		{"by name too few", auditFig(60, 100, 100, 57, 63), false, false, false, "2400 needed"},
		{"by name inside", auditFig(1500, 2500, 100, 57, 63), false, true, true, ""},
		// 56 % over 2500: 4 points from 60 is 4.1σ (σ = 0.98)
		{"by name outside, noise", auditFig(1400, 2500, 100, 57, 63), false, false, false, "6667 samples needed"},
		// 50 % over 2500: 10.2σ
		{"by name far outside", auditFig(1250, 2500, 100, 57, 63), false, false, true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := results.Check{Passed: tc.f.OK}
			judgeSampled(&c, tc.f, tc.mean)
			if c.Passed != tc.pass || c.NotJudged == tc.judged {
				t.Errorf("passed %v not judged %v, want passed %v judged %v (%s)", c.Passed, c.NotJudged, tc.pass, tc.judged, c.Detail)
			}
			if !strings.Contains(c.Detail, tc.detail) {
				t.Errorf("detail %q lacks %q", c.Detail, tc.detail)
			}
		})
	}
}

// TestJudgeSampledHonestGenerator draws the line counts of an honest
// generator (uniform 5..15) for 20000 short runs of 360-500 orders, the
// size of a 2-terminal 2-second partition, and of a generator off by one
// line: the honest one never fails, the broken one fails once the runs are
// long enough to tell.
func TestJudgeSampledHonestGenerator(t *testing.T) {
	rng := rand.New(rand.NewSource(15))
	run := func(n int, lo int) results.Check {
		var lines int64
		for i := 0; i < n; i++ {
			lines += int64(lo + rng.Intn(11))
		}
		f := auditFig(lines, int64(n), 1, 9.5, 10.5)
		c := results.Check{Passed: f.OK}
		judgeSampled(&c, f, true)
		return c
	}
	outside := 0
	for i := 0; i < 20000; i++ {
		c := run(360+rng.Intn(141), 5)
		if !c.Passed && !c.NotJudged {
			t.Fatalf("an honest generator failed: %s", c.Detail)
		}
		if c.NotJudged {
			outside++
		}
	}
	// 3σ at 360 samples: about 0.3 % of honest runs land outside the bounds.
	if outside == 0 || outside > 200 {
		t.Errorf("%d of 20000 honest runs outside the bounds, want a few dozen", outside)
	}
	for i := 0; i < 100; i++ {
		if c := run(2000, 4); c.Passed || c.NotJudged {
			t.Fatalf("a generator one line short was not failed: %s", c.Detail)
		}
	}
}

// The mix check left unjudged by the decks at the window's edges says how
// many transactions it needs, never an uncertainty above 100 points.
func TestMixChecksNotJudgedNeeds(t *testing.T) {
	w := &Workload{deck: buildDeck(DefaultMix)}
	tests := []struct {
		terminals int
		total     int64
		judged    bool
		detail    string
	}{
		{64, 1239, false, "not judged: 43.18 % of 1239 transactions, 1126400 needed to judge (the decks of 64 terminals at the window's edges)"},
		{1, 1000000, true, "43.26 % of 1000000 transactions"},
	}
	for _, tc := range tests {
		cum := metrics.NewSnapshot(NumOps, 0)
		share := [NumOps]float64{OpNewOrder: 44.74, OpPayment: 43.26, OpOrderStatus: 4, OpDelivery: 4, OpStockLevel: 4}
		for op := range share {
			cum.Counts[op].OK = int64(share[op] * float64(tc.total) / 100)
		}
		checks := w.mixChecks(cum, tc.total, tc.terminals)
		pay := checks[0]
		if !strings.HasPrefix(pay.Name, "mix payment") {
			t.Fatalf("first check %q", pay.Name)
		}
		if pay.NotJudged == tc.judged || !strings.HasPrefix(pay.Detail, tc.detail) {
			t.Errorf("%d terminals, %d transactions: not judged %v, detail %q, want prefix %q", tc.terminals, tc.total, pay.NotJudged, pay.Detail, tc.detail)
		}
	}
}

// TestSkippedDeliveriesCheckName: the skipped-deliveries check's bound
// (1 % of the Deliveries, at least 1) is in its detail, not its name, so
// that every partition's check and the merged run's have the same name.
func TestSkippedDeliveriesCheckName(t *testing.T) {
	tests := []struct {
		name       string
		skipped    float64
		deliveries int64
		pass       bool
		detail     string
	}{
		{"few deliveries", 1, 50, true, "1 skipped over 50 Deliveries, at most 1 allowed"},
		{"one partition's share", 4, 300, false, "4 skipped over 300 Deliveries, at most 3 allowed"},
		{"the merged run", 4, 600, true, "4 skipped over 600 Deliveries, at most 6 allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bound := max(1, 0.01*float64(tc.deliveries))
			audit := map[string]any{"delivery_skipped_districts": AuditFigure{Value: tc.skipped, Max: bound, OK: tc.skipped <= bound, Samples: tc.deliveries}}
			got := auditChecks(audit)
			want := results.Check{Name: skippedDeliveriesCheck, Passed: tc.pass, Detail: tc.detail}
			if len(got) != 1 || got[0] != want {
				t.Fatalf("checks %+v, want [%+v]", got, want)
			}
		})
	}
}
