package tpcc

import (
	"context"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/target"
	"benchpress/internal/testdb"
	"benchpress/internal/workload"
)

// countingWorkload wraps the TPC-C workload and counts New-Orders that
// committed (outcome OK), independently of the runner and its registry.
type countingWorkload struct {
	*Workload
	committed atomic.Int64
}

type countingTerminal struct {
	*Terminal
	n *atomic.Int64
}

func (c *countingWorkload) NewTerminal(ctx context.Context, id, n int, conn target.Conn) (workload.Terminal, error) {
	t, err := c.Workload.NewTerminal(ctx, id, n, conn)
	if err != nil {
		return nil, err
	}
	return &countingTerminal{Terminal: t.(*Terminal), n: &c.committed}, nil
}

func (c *countingTerminal) Exec(ctx context.Context, op int) (metrics.Outcome, error) {
	out, err := c.Terminal.Exec(ctx, op)
	if op == OpNewOrder && err == nil && out == metrics.OK {
		c.n.Add(1)
	}
	return out, err
}

func countRows(t *testing.T, ctx context.Context, conn target.Conn, table string) int64 {
	t.Helper()
	rows, err := conn.Query(ctx, "SELECT COUNT(*) FROM "+table)
	if err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	defer rows.Close()
	var n int64
	if !rows.Next() {
		t.Fatalf("count %s: no row (%v)", table, rows.Err())
	}
	if err := rows.Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

// TestTransactionsIntegration prepares a small data set on every test
// database, runs the five transactions through the runner, and checks that
// the tool's New-Order count equals the rows the database gained, that the
// spec rollbacks are ~1 %, that no non-retryable error happened, and that
// the consistency conditions still hold.
func TestTransactionsIntegration(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test")
	}
	for _, tgt := range testdb.All(t, "tpcc_txn") {
		t.Run(string(tgt.Kind), func(t *testing.T) {
			modes := []target.StatementMode{target.Prepared}
			if tgt.Kind != target.SQLite {
				modes = append(modes, target.Text)
			}
			for i, mode := range modes {
				dur := 10 * time.Second
				if i > 0 {
					dur = 5 * time.Second
				}
				t.Run(string(mode), func(t *testing.T) {
					runTxnIntegration(t, tgt, mode, dur)
				})
			}
		})
	}
}

func runTxnIntegration(t *testing.T, tgt *target.Target, mode target.StatementMode, dur time.Duration) {
	ctx := context.Background()
	names, _ := NamesFor("standard")
	loadTxnFixture(t, tgt)
	warehouses := txnWarehouses(tgt.Kind)
	conn, err := target.NewConnector(tgt, target.Options{StatementMode: mode})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	admin, err := conn.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	meta, err := ReadMeta(ctx, admin, names)
	if err != nil {
		t.Fatalf("read meta: %v", err)
	}
	ordersBefore := countRows(t, ctx, admin, names.Orders)

	inner, err := New(Config{Warehouses: warehouses, Mix: DefaultMix, Names: names, Seed: 42}, meta)
	if err != nil {
		t.Fatal(err)
	}
	if !LegalCDelta(meta.CLoadLast, inner.CRun()) {
		t.Fatalf("C-run %d illegal for C-load %d", inner.CRun(), meta.CLoadLast)
	}
	wl := &countingWorkload{Workload: inner}
	const terminals = 4
	res, err := runner.Run(ctx, runner.Config{Terminals: terminals, Duration: dur, MaxRetries: 3}, wl, conn)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	cum := res.Cumulative
	no := cum.Counts[OpNewOrder]

	ordersAfter := countRows(t, ctx, admin, names.Orders)
	gained := ordersAfter - ordersBefore
	if gained != wl.committed.Load() {
		t.Errorf("orders gained %d, New-Orders committed %d", gained, wl.committed.Load())
	}
	// The runner counts a transaction in the phase it started in and drains
	// in-flight work before the final tick, so with no warm-up the tool's
	// count must equal what the database committed, exactly.
	if no.OK != gained {
		t.Errorf("registry counted %d committed New-Orders, database gained %d", no.OK, gained)
	}

	for op := 0; op < NumOps; op++ {
		c := cum.Counts[op]
		for cl := target.Class(1); cl < target.NumClasses; cl++ {
			if c.Errs[cl] > 0 && !cl.Retryable() {
				t.Errorf("%s: %d %s errors", OpNames[op], c.Errs[cl], cl)
			}
		}
		if c.Retries > 0 || c.Errors() > 0 {
			t.Logf("%s: %d retries, %d errors after retries", OpNames[op], c.Retries, c.Errors())
		}
		if c.OK+c.Rollback == 0 {
			t.Errorf("%s: no transaction completed", OpNames[op])
		}
	}

	// Rollbacks: 1 % per New-Order. With n New-Orders the binomial standard
	// deviation is sqrt(p(1-p)/n); accept [0.5, 1.5] % for n >= 5000 and a
	// 4-sigma band otherwise (SQLite's single writer gives small samples).
	n := no.OK + no.Rollback
	pct := 100 * float64(no.Rollback) / float64(n)
	lo, hi := 0.5, 1.5
	if n < 5000 {
		sd := 100 * math.Sqrt(0.01*0.99/float64(n))
		lo, hi = math.Max(0, 1-4*sd), 1+4*sd
	}
	if n >= 500 && no.Rollback == 0 || pct < lo || pct > hi {
		t.Errorf("New-Order rollbacks %.2f%% of %d, want [%.2f, %.2f]", pct, n, lo, hi)
	}

	r := &results.Run{Summary: results.Summary{DurationS: res.MeasuredSeconds()}}
	inner.Summarize(r, cum)
	audit := r.Extra["audit"].(map[string]any)
	t.Logf("%s/%s W=%d: tpmC %.0f, New-Orders %d (%d rolled back, %.2f%%), statements %d, audit %v",
		tgt.Kind, mode, warehouses, r.Summary.TpmC, n, no.Rollback, r.Summary.NewOrderRollbackPct,
		inner.Statements(cum), audit)
	if r.Summary.TpmC <= 0 {
		t.Errorf("tpmC %v", r.Summary.TpmC)
	}
	if f := audit["payment_by_name_pct"].(AuditFigure); f.Samples > 1000 && (f.Value < 50 || f.Value > 70) {
		t.Errorf("payment by name %.1f%%", f.Value)
	}

	// All the conditions, with those on the money Payment and Delivery
	// move (6, 10, 12): a regression in the batched Delivery's customer
	// credit would pass the cheap ones.
	checks, err := Check(ctx, admin, names, true)
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	for _, c := range checks {
		if !c.Passed {
			t.Errorf("consistency check %s failed: %s", c.Name, c.Detail)
		}
	}
}
