package mywire_test

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"benchpress/internal/target"
	"benchpress/internal/testdb"

	"github.com/go-sql-driver/mysql"
)

// TestProtocolThroughShardingSphere runs the protocol client against a
// second implementation of the MySQL server protocol: ShardingSphere-Proxy
// 5.1.0's MySQL frontend (Java, its own packet codec), in front of one
// MariaDB database. Prepared statements with every argument kind the
// workloads send, result decoding against the text protocol, no-rows,
// a server error in the middle of a session (which must leave it usable),
// a large result set, and BEGIN/COMMIT/ROLLBACK.
func TestProtocolThroughShardingSphere(t *testing.T) {
	tg := testdb.ProxyDB(t, testdb.ProxyWire)
	_, c := testdb.Connect(t, tg, target.Options{})
	ctx := ctxT(t)
	tbl := table(t, c, "mw_proxy")
	mustExec(t, c, "CREATE TABLE "+tbl+" (id BIGINT PRIMARY KEY, d DECIMAL(12,2), q DECIMAL(8,4), s VARCHAR(64), ts DATETIME, f DOUBLE, n INT NULL)")

	ins := mustPrepare(t, c, "INSERT INTO "+tbl+" (id, d, q, s, ts, f, n) VALUES (?, ?, ?, ?, ?, ?, ?)")
	when := time.Date(2024, 2, 29, 13, 14, 15, 0, time.UTC)
	for i := int64(1); i <= 3; i++ {
		var n any
		if i != 2 {
			n = i * 10
		}
		k, err := ins.Exec(ctx, i, target.Cents(-123456+i), target.Decimal4(12345678), fmt.Sprintf("héllo %d", i), when, 2.5*float64(i), n)
		if k != 1 || err != nil {
			t.Fatalf("prepared insert %d: %d, %v", i, k, err)
		}
	}

	sel := mustPrepare(t, c, "SELECT id, d, q, s, ts, f, n FROM "+tbl+" WHERE id >= ? ORDER BY id")
	rows, err := sel.Query(ctx, int64(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%T", rows); got != "*target.wireRows" {
		t.Fatalf("rows are %s, want *target.wireRows (the protocol client)", got)
	}
	var got []string
	for rows.Next() {
		var (
			id   int64
			d    target.Cents
			q    target.Decimal4
			s    string
			ts   time.Time
			f    float64
			null sql.NullInt64
		)
		if err := rows.Scan(&id, &d, &q, &s, &ts, &f, &null); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d|%d|%d|%s|%s|%g|%v:%d", id, d, q, s, ts.UTC().Format(time.DateTime), f, null.Valid, null.Int64))
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	text := textQuery(t, c, 7, "SELECT id, d, q, s, ts, f, n FROM "+tbl+" ORDER BY id")
	if len(got) != 3 || len(text) != 3 {
		t.Fatalf("binary rows %v, text rows %d", got, len(text))
	}
	want := []string{
		"1|-123455|12345678|héllo 1|2024-02-29 13:14:15|2.5|true:10",
		"2|-123454|12345678|héllo 2|2024-02-29 13:14:15|5|false:0",
		"3|-123453|12345678|héllo 3|2024-02-29 13:14:15|7.5|true:30",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("binary protocol rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if *text[0][1] != "-1234.55" || *text[0][3] != "héllo 1" || text[1][6] != nil {
		t.Errorf("text protocol row 1 %q, row 2 n %v", derefAll(text[0]), text[1][6])
	}

	// No rows.
	if err := sel.QueryRow(ctx, []any{new(int64), new(target.Cents), new(target.Decimal4), new(string), new(time.Time), new(float64), new(sql.NullInt64)}, int64(99)); !errors.Is(err, target.ErrNoRows) {
		t.Errorf("no rows: %v", err)
	}

	// A server error (duplicate key) on a prepared statement leaves the
	// session usable: the next statements on it work.
	_, err = ins.Exec(ctx, int64(1), target.Cents(0), target.Decimal4(0), "dup", when, 0.0, nil)
	var me *mysql.MySQLError
	if !errors.As(err, &me) || target.Classify(err) != target.ClassConstraint {
		t.Fatalf("duplicate key: %v (class %v), want a constraint MySQLError", err, target.Classify(err))
	}
	count := mustPrepare(t, c, "SELECT COUNT(*) FROM "+tbl)
	cnt := func() int64 {
		t.Helper()
		var n int64
		if err := count.QueryRow(ctx, []any{&n}); err != nil {
			t.Fatalf("count after an error: %v", err)
		}
		return n
	}
	if n := cnt(); n != 3 {
		t.Fatalf("count %d, want 3", n)
	}

	// Transactions.
	if err := c.Begin(ctx, true); err != nil {
		t.Fatal(err)
	}
	if _, err := ins.Exec(ctx, int64(10), target.Cents(1), target.Decimal4(1), "rolled back", when, 1.0, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Begin(ctx, true); err != nil {
		t.Fatal(err)
	}
	for i := int64(100); i < 2100; i++ {
		if _, err := ins.Exec(ctx, i, target.Cents(i), target.Decimal4(i), strings.Repeat("x", 60), when, float64(i), i); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if n := cnt(); n != 2003 {
		t.Fatalf("count %d after a rollback of 1 and a commit of 2000, want 2003", n)
	}

	// A large result through the binary protocol.
	rows, err = sel.Query(ctx, int64(100))
	if err != nil {
		t.Fatal(err)
	}
	var rowsRead, sum int64
	for rows.Next() {
		var id int64
		var d target.Cents
		var q target.Decimal4
		var s string
		var ts time.Time
		var f float64
		var n sql.NullInt64
		if err := rows.Scan(&id, &d, &q, &s, &ts, &f, &n); err != nil {
			t.Fatal(err)
		}
		rowsRead++
		sum += n.Int64
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if rowsRead != 2000 || sum != (100+2099)*2000/2 {
		t.Errorf("large result: %d rows, sum %d", rowsRead, sum)
	}
}

func derefAll(row []*string) []string {
	out := make([]string, len(row))
	for i, p := range row {
		if p != nil {
			out[i] = *p
		} else {
			out[i] = "NULL"
		}
	}
	return out
}
