package target_test

import (
	"context"
	"database/sql"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// pgRow is one row of pgfast in the destination types the workloads use.
type pgRow struct {
	i2     int64
	i4     int
	i8     int64
	f4, f8 float64
	n      target.Cents
	r      target.Decimal4
	nf     float64
	t, v   string
	ch     string
	b      bool
	ts, tz time.Time
	d      time.Time
	nn     sql.NullInt64
}

func (r *pgRow) dest() []any {
	return []any{&r.i2, &r.i4, &r.i8, &r.f4, &r.f8, &r.n, &r.r, &r.nf, &r.t, &r.v, &r.ch, &r.b, &r.ts, &r.tz, &r.d, &r.nn}
}

const pgFastCols = "i2, i4, i8, f4, f8, n, r, n, t, v, ch, b, ts, tz, d, nn"

// TestPGLeanPath checks PostgreSQL prepared statements on the lean path
// (pg_fast.go) against pgx itself on the same session: the same arguments
// store the same row, the same row scans into the same values, NULL and
// type errors come out as pgx's, a multi-row result reads, a server error
// keeps its code and class and leaves the session usable, and a statement
// with an argument the lean path does not bind still runs (through pgx).
func TestPGLeanPath(t *testing.T) {
	tg := testdb.For(t, target.Postgres, "target")
	ctx := ctxT(t)
	_, c := testdb.Connect(t, tg, target.Options{StatementMode: target.Prepared})
	px := c.Raw().(*pgx.Conn)
	mustExec(t, c, "DROP TABLE IF EXISTS pgfast")
	mustExec(t, c, `CREATE TABLE pgfast (id INT PRIMARY KEY, i2 SMALLINT, i4 INT, i8 BIGINT, f4 REAL,
		f8 DOUBLE PRECISION, n NUMERIC(12,2), r NUMERIC(4,4), t TEXT, v VARCHAR(20), ch CHAR(5), b BOOL,
		ts TIMESTAMP, tz TIMESTAMPTZ, d DATE, nn INT, bin BYTEA)`)
	t.Cleanup(func() { c.Exec(context.Background(), "DROP TABLE IF EXISTS pgfast") })

	ist := time.FixedZone("IST", 5*3600+30*60)
	args := []any{int16(-3), 7, int64(-5_000_000_000_000_000), float32(1.5), 0.1, target.Cents(-1005),
		target.Decimal4(1234), "x'y\\z", "vv é", "ab", true,
		time.Date(2026, 11, 23, 1, 2, 3, 456789999, ist), time.Date(2026, 11, 23, 1, 2, 3, 456789000, ist),
		time.Date(2024, 2, 29, 23, 59, 0, 0, ist), nil}
	ins := mustPrepare(t, c, "INSERT INTO pgfast (id, i2, i4, i8, f4, f8, n, r, t, v, ch, b, ts, tz, d, nn) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
	if n, err := ins.Exec(ctx, append([]any{1}, args...)...); err != nil || n != 1 {
		t.Fatalf("lean insert: %d, %v", n, err)
	}
	if _, err := px.Exec(ctx, "INSERT INTO pgfast (id, i2, i4, i8, f4, f8, n, r, t, v, ch, b, ts, tz, d, nn) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
		append([]any{2}, args...)...); err != nil {
		t.Fatalf("pgx insert: %v", err)
	}
	var lean, viaPgx string
	asText := "SELECT (i2, i4, i8, f4, f8, n, r, t, v, ch, b, ts, tz, d, nn)::text FROM pgfast WHERE id = $1"
	if err := px.QueryRow(ctx, asText, 1).Scan(&lean); err != nil {
		t.Fatal(err)
	}
	if err := px.QueryRow(ctx, asText, 2).Scan(&viaPgx); err != nil {
		t.Fatal(err)
	}
	if lean != viaPgx {
		t.Errorf("stored rows differ:\nlean %s\npgx  %s", lean, viaPgx)
	}

	sel := mustPrepare(t, c, "SELECT "+pgFastCols+" FROM pgfast WHERE id = ?")
	var a, b pgRow
	if err := sel.QueryRow(ctx, a.dest(), 1); err != nil {
		t.Fatalf("lean select: %v", err)
	}
	if err := px.QueryRow(ctx, "SELECT "+pgFastCols+" FROM pgfast WHERE id = $1", 1).Scan(b.dest()...); err != nil {
		t.Fatalf("pgx select: %v", err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("scanned rows differ:\nlean %+v\npgx  %+v", a, b)
	}
	if a.n != -1005 || a.nf != -10.05 || a.i8 != -5_000_000_000_000_000 || a.ch != "ab   " || a.nn.Valid {
		t.Errorf("lean row %+v", a)
	}

	// NULL into a plain destination: pgx's error, naming the column.
	var plain int64
	nullSel := mustPrepare(t, c, "SELECT nn FROM pgfast WHERE id = ?")
	if err := nullSel.QueryRow(ctx, []any{&plain}, 1); err == nil || !strings.Contains(err.Error(), "nn") {
		t.Errorf("NULL into *int64: %v, want an error naming nn", err)
	}
	if err := sel.QueryRow(ctx, []any{&plain}, 1); err == nil {
		t.Error("wrong destination count: no error")
	}
	if err := sel.QueryRow(ctx, a.dest(), 99); !errors.Is(err, target.ErrNoRows) {
		t.Errorf("missing row: %v, want ErrNoRows", err)
	}

	// Multi-row results, twice (the Rows is reused).
	q := mustPrepare(t, c, "SELECT id, n FROM pgfast WHERE id >= ? ORDER BY id")
	for pass := 0; pass < 2; pass++ {
		rows, err := q.Query(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for rows.Next() {
			var id int64
			var n target.Cents
			if err := rows.Scan(&id, &n); err != nil || n != -1005 {
				t.Fatalf("scan: %v %v", n, err)
			}
			ids = append(ids, id)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if err := rows.Close(); err != nil || !reflect.DeepEqual(ids, []int64{1, 2}) {
			t.Fatalf("pass %d: ids %v, close %v", pass, ids, err)
		}
	}

	// A server error: the code, the class, a usable session.
	_, err := ins.Exec(ctx, append([]any{1}, args...)...)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "23505" || target.Classify(err) != target.ClassConstraint {
		t.Fatalf("duplicate key: %v (class %v)", err, target.Classify(err))
	}
	if err := sel.QueryRow(ctx, a.dest(), 2); err != nil {
		t.Fatalf("after the error: %v", err)
	}

	// Arguments the lean path does not bind run through pgx.
	up := mustPrepare(t, c, "UPDATE pgfast SET bin = ? WHERE id = ?")
	if n, err := up.Exec(ctx, []byte{0, 1, 2}, 1); err != nil || n != 1 {
		t.Fatalf("bytea update: %d, %v", n, err)
	}
	var by []byte
	if err := mustPrepare(t, c, "SELECT bin FROM pgfast WHERE id = ?").QueryRow(ctx, []any{&by}, 1); err != nil || !reflect.DeepEqual(by, []byte{0, 1, 2}) {
		t.Fatalf("bytea: %v %v", by, err)
	}
}

// A COMMIT of a transaction that a failed statement aborted is answered by
// PostgreSQL with the tag ROLLBACK and no error: Commit must fail, or the
// transaction would count as committed.
func TestPGCommitOfAbortedTransactionFails(t *testing.T) {
	tg := testdb.For(t, target.Postgres, "target")
	ctx := ctxT(t)
	_, c := testdb.Connect(t, tg, target.Options{StatementMode: target.Prepared})
	if err := c.Begin(ctx, false); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, "SELECT 1/0"); err == nil {
		t.Fatal("SELECT 1/0 did not fail")
	}
	if err := c.Commit(ctx); !errors.Is(err, pgx.ErrTxCommitRollback) {
		t.Fatalf("commit of an aborted transaction: %v, want pgx.ErrTxCommitRollback", err)
	}
	// The session is usable afterwards.
	if _, err := c.Exec(ctx, "SELECT 1"); err != nil {
		t.Fatalf("after the refused commit: %v", err)
	}
}
