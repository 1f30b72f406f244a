package tpcc

import (
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

	r := &results.Run{Summary: results.Summary{DurationS: 120}}
	w.Summarize(r, cum)
	s := r.Summary
	if s.TpmC != 50 || s.NewOrderCommitted != 99 || s.NewOrderRolledBack != 1 || s.NewOrderRollbackPct != 1 {
		t.Errorf("summary %+v", s)
	}
	if want := 100 * 50 / (12.86 * 2); s.Efficiency != want {
		t.Errorf("efficiency %v, want %v", s.Efficiency, want)
	}
	if len(r.Checks) != NumOps {
		t.Fatalf("%d checks", len(r.Checks))
	}
	if !r.Checks[OpNewOrder].Passed || r.Checks[OpStockLevel].Passed {
		t.Errorf("checks %+v", r.Checks)
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
