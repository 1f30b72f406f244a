package tpcc

import (
	"math"
	"strings"
	"testing"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
)

func TestSummarize(t *testing.T) {
	w, err := New(Config{Warehouses: 2, Mix: DefaultMix, Names: testNamesStd(), Wait: true}, Meta{Warehouses: 2, CLoadLast: 1})
	if err != nil {
		t.Fatal(err)
	}
	reg := metrics.NewRegistry(w.Ops(), w.Extras(), 1)
	reg.SetPhase(metrics.Measure)
	rec := reg.Recorder(0)
	ex := make([]int64, numExtras)
	for i := 0; i < 99; i++ {
		ex[exNewOrderLines] = 10
		rec.Record(OpNewOrder, time.Millisecond, metrics.OK, 0, ex)
	}
	ex[exNewOrderLines], ex[exNewOrderRemoteLines] = 10, 10
	rec.Record(OpNewOrder, time.Millisecond, metrics.Rollback, 0, ex)
	for i := 0; i < 10; i++ {
		ex[exStatements] = 3
		rec.Record(OpStockLevel, 21*time.Second, metrics.OK, 0, ex)
	}
	reg.Tick()
	cum := reg.Cumulative()

	r := &results.Run{Summary: results.Summary{DurationS: 120}, Config: map[string]any{"terminals": 20},
		Series: []results.Interval{{T: 10, DurS: 10, Ops: map[string]results.IntervalOp{"new_order": {Count: 50}}}, {T: 12}}}
	w.Summarize(r, cum)
	if r.Series[0].TpmC != 300 || r.Series[1].TpmC != 0 {
		t.Errorf("series tpmC %v, %v; want 300, 0", r.Series[0].TpmC, r.Series[1].TpmC)
	}
	s := r.Summary
	if s.TpmC != 50 || s.NewOrderCommitted != 99 || s.NewOrderRolledBack != 1 || s.NewOrderRollbackPct != 1 {
		t.Errorf("summary %+v", s)
	}
	if want := 100 * 50 / (12.86 * 2); s.Efficiency != want {
		t.Errorf("efficiency %v, want %v", s.Efficiency, want)
	}
	if s.EfficiencyNote == "" {
		t.Errorf("efficiency without a note")
	}
	// A partition's efficiency is over its own terminals (10 of the run's
	// 20): its tpmC is their share.
	part := &results.Run{Summary: results.Summary{DurationS: 120}, Config: map[string]any{"terminals": 20},
		Partition: &results.Partition{Index: 0, Count: 2, Terminals: 10, WarehouseFrom: 1, WarehouseTo: 1}}
	w.Summarize(part, cum)
	if want := 100 * 50 / (12.86 * 1); math.Abs(part.Summary.Efficiency-want) > 1e-9 {
		t.Errorf("partition efficiency %v, want %v (over its 10 terminals)", part.Summary.Efficiency, want)
	}
	if want := "against 12.86 x 1 warehouse(s)"; !strings.HasPrefix(part.Summary.EfficiencyNote, want) {
		t.Errorf("partition efficiency note %q, want %q... (its own warehouse, 10 terminals on it)", part.Summary.EfficiencyNote, want)
	}
	checks := map[string]results.Check{}
	for _, c := range r.Checks {
		checks[c.Name] = c
	}
	for name, want := range map[string]string{
		"p90 new_order <= 5s":                        "pass",
		"p90 stock_level <= 20s":                     "fail",
		"p90 payment <= 5s":                          "not judged", // no Payment completed
		"audit new_order_rollback_pct in [0.9, 1.1]": "not judged", // 100 New-Orders
		"mix payment >= 43 % (clause 5.2.3)":         "not judged", // 110 transactions
	} {
		c, ok := checks[name]
		got := "fail"
		switch {
		case !ok:
			got = "missing"
		case c.NotJudged:
			got = "not judged"
		case c.Passed:
			got = "pass"
		}
		if got != want {
			t.Errorf("check %q: %s, want %s (%+v)", name, got, want, c)
		}
	}
	audit := r.Extra["audit"].(map[string]any)
	if f := audit["new_order_rollback_pct"].(AuditFigure); f.Value != 1 || !f.OK {
		t.Errorf("rollback figure %+v", f)
	}
	if f := audit["new_order_remote_line_pct"].(AuditFigure); f.Value != 1 || !f.OK {
		t.Errorf("remote line figure %+v", f)
	}
	if got := w.Statements(cum); got != 30 {
		t.Errorf("statements %d", got)
	}
}

func TestEfficiencyScalesWithTerminals(t *testing.T) {
	w, err := New(Config{Warehouses: 1, Mix: DefaultMix, Names: testNamesStd(), Wait: true}, Meta{Warehouses: 1, CLoadLast: 1})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		terminals int
		tpmC      float64
		want      float64
	}{
		{"10 per warehouse", 10, 12.86, 100},
		{"100 terminals on 1 warehouse", 100, 122, 100 * 122 / 128.6},
		{"unknown terminals", 0, 12, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, note := efficiency(tt.tpmC, 42, tt.terminals, w.w)
			if math.Abs(got-tt.want) > 1e-9 || note == "" {
				t.Fatalf("efficiency = %v (%q), want %v", got, note, tt.want)
			}
			if tt.terminals > 0 && !strings.Contains(note, "on 42 New-Orders") {
				t.Fatalf("note %q does not name the New-Orders", note)
			}
		})
	}
}
