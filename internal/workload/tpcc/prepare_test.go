package tpcc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"benchpress/internal/load"
	"benchpress/internal/target"
	"benchpress/internal/testdb"
	"benchpress/internal/workload"
)

// testTargets returns SQLite (temp file), MariaDB and PostgreSQL connectors
// (servers left out when unreachable), on database bp_t_tpcc_load so that
// the transaction tests of this package never share tables with these.
func testTargets(t *testing.T) map[string]*target.Connector {
	t.Helper()
	return testdb.Connectors(t, "tpcc_load", target.Options{ConnectTimeout: 5 * time.Second})
}

var wantRows1W = map[string]int64{
	"warehouse": 1, "district": 10, "customer": 30000, "history": 30000, "orders": 30000,
	"new_order": 9000, "item": 100000, "stock": 100000,
}

func TestPrepareCheckIntegration(t *testing.T) {
	for name, c := range testTargets(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			n, _ := NamesFor("standard")
			conn, err := c.Connect(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if err := Cleanup(ctx, conn, n); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadMeta(ctx, conn, n); !errors.Is(err, workload.ErrNotPrepared) {
				t.Fatalf("ReadMeta on empty db: got %v, want ErrNotPrepared", err)
			}
			cfg := PrepareConfig{Warehouses: 1, Threads: 8, Seed: 42, Names: n,
				Progress: func(p load.Progress) {
					if p.Done {
						t.Logf("progress: %d/%d rows, %d/%d units", p.Rows, p.EstRows, p.UnitsDone, p.Units)
					}
				}}
			st, err := Prepare(ctx, c, cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: loaded %d rows in %v (load %v, indexes %v, %d threads)", name, st.Rows,
				st.Total.Round(time.Millisecond), st.Load.Round(time.Millisecond), st.Indexes.Round(time.Millisecond), st.Threads)

			for tab, want := range wantRows1W {
				var got int64
				if err := queryInt(ctx, conn, "SELECT COUNT(*) FROM "+tab, &got); err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("%s: %d rows, want %d", tab, got, want)
				}
			}
			var ol, sumCnt int64
			_ = queryInt(ctx, conn, "SELECT COUNT(*) FROM order_line", &ol)
			_ = queryInt(ctx, conn, "SELECT SUM(o_ol_cnt) FROM orders", &sumCnt)
			if ol != sumCnt || ol < 150000 || ol > 450000 {
				t.Errorf("order_line: %d rows, sum(o_ol_cnt) = %d", ol, sumCnt)
			}

			t0 := time.Now()
			checks, err := Check(ctx, conn, n, true)
			if err != nil {
				t.Errorf("check: %v", err)
			}
			t.Logf("check --all: %v", time.Since(t0).Round(time.Millisecond))
			seen := map[string]bool{}
			for _, ch := range checks {
				seen[strings.SplitN(ch.Name, ":", 2)[0]] = true
				if !ch.Passed {
					t.Errorf("condition %s failed: %s", ch.Name, ch.Detail)
				}
			}
			if len(checks) != 12 || !seen["11"] {
				t.Errorf("got %d checks (%v), want all 12 incl. 11", len(checks), seen)
			}

			// A violation is reported with the first offending warehouse/district.
			if _, err := conn.Exec(ctx, "UPDATE district SET d_ytd = d_ytd + 1 WHERE d_w_id = 1 AND d_id = 3"); err != nil {
				t.Fatal(err)
			}
			checks, err = Check(ctx, conn, n, false)
			if !errors.Is(err, workload.ErrCheckFailed) {
				t.Errorf("check after corrupting d_ytd: %v, want ErrCheckFailed", err)
			}
			for _, ch := range checks {
				bad := strings.HasPrefix(ch.Name, "1:") || strings.HasPrefix(ch.Name, "9:")
				if ch.Passed == bad {
					t.Errorf("condition %s: passed=%v (%s)", ch.Name, ch.Passed, ch.Detail)
				}
				if strings.HasPrefix(ch.Name, "9:") && !strings.Contains(ch.Detail, "warehouse 1 district 3 ") {
					t.Errorf("condition 9 detail %q does not name warehouse 1 district 3", ch.Detail)
				}
			}

			m, err := ReadMeta(ctx, conn, n)
			if err != nil {
				t.Fatal(err)
			}
			if m != st.Meta {
				t.Errorf("ReadMeta = %+v, want %+v", m, st.Meta)
			}
			if err := m.Validate(1, "standard"); err != nil {
				t.Error(err)
			}
			if err := m.Validate(8, "standard"); !errors.Is(err, workload.ErrScaleMismatch) {
				t.Errorf("Validate(8): %v", err)
			}
			if err := m.Validate(1, "bmsql"); !errors.Is(err, workload.ErrSchemeMismatch) {
				t.Errorf("Validate(bmsql): %v", err)
			}
			if _, err := Prepare(ctx, c, cfg); !errors.Is(err, ErrTablesExist) {
				t.Errorf("Prepare without Drop: %v, want ErrTablesExist", err)
			}
			if err := Cleanup(ctx, conn, n); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadMeta(ctx, conn, n); !errors.Is(err, workload.ErrNotPrepared) {
				t.Errorf("ReadMeta after cleanup: %v", err)
			}
		})
	}
}

func queryInt(ctx context.Context, conn target.Conn, q string, dst *int64) error {
	rows, err := conn.Query(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	if rows.Next() {
		if err := rows.Scan(dst); err != nil {
			return err
		}
	}
	return rows.Err()
}

// TestReadMetaErrors: tables of another scheme without metadata give
// ErrSchemeMismatch naming that scheme; an unfinished load gives
// ErrNotPrepared.
func TestReadMetaErrors(t *testing.T) {
	ctx := context.Background()
	for name, c := range testTargets(t) {
		t.Run(name, func(t *testing.T) {
			conn, err := c.Connect(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			std, _ := NamesFor("standard")
			bm, _ := NamesFor("bmsql")
			// Twice: the cleanup of one scheme refuses the other's data set
			// until that is gone.
			for _, n := range []Names{std, bm, std, bm} {
				if err := Cleanup(ctx, conn, n); err != nil && !errors.Is(err, workload.ErrSchemeMismatch) {
					t.Fatal(err)
				}
			}
			defer Cleanup(ctx, conn, bm)
			if err := createTables(ctx, conn, bm); err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Exec(ctx, "DROP TABLE "+bm.Meta); err != nil {
				t.Fatal(err)
			}
			_, err = ReadMeta(ctx, conn, std)
			if !errors.Is(err, workload.ErrSchemeMismatch) || !strings.Contains(err.Error(), "bmsql") {
				t.Errorf("ReadMeta(standard) over bmsql tables: %v", err)
			}
			if _, err := conn.Exec(ctx, metaTableSQL(conn.Kind(), bm)); err != nil {
				t.Fatal(err)
			}
			if err := writeMeta(ctx, conn, bm, NewMeta("bmsql", 2, 7, time.Now())); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadMeta(ctx, conn, bm); !errors.Is(err, workload.ErrNotPrepared) {
				t.Errorf("ReadMeta on an unfinished load: %v, want ErrNotPrepared", err)
			}
			if err := setMeta(ctx, conn, bm, keyStatus, statusComplete); err != nil {
				t.Fatal(err)
			}
			if m, err := ReadMeta(ctx, conn, bm); err != nil || m.Warehouses != 2 || m.Seed != 7 {
				t.Errorf("ReadMeta(bmsql) = %+v, %v", m, err)
			}
			if _, err := ReadMeta(ctx, conn, std); !errors.Is(err, workload.ErrSchemeMismatch) {
				t.Errorf("ReadMeta(standard) on bmsql metadata: %v, want ErrSchemeMismatch", err)
			}
			// The cleanup of another scheme leaves this data set alone.
			if err := Cleanup(ctx, conn, std); !errors.Is(err, workload.ErrSchemeMismatch) {
				t.Errorf("Cleanup(standard) on a bmsql data set: %v, want ErrSchemeMismatch", err)
			}
			if m, err := ReadMeta(ctx, conn, bm); err != nil || m.Warehouses != 2 {
				t.Errorf("ReadMeta(bmsql) after the refused cleanup = %+v, %v", m, err)
			}
		})
	}
}
