package mywire_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"benchpress/internal/target"
	"benchpress/internal/testdb"

	"github.com/go-sql-driver/mysql"
)

// Integration tests against a real MariaDB through the target package: in
// Prepared mode on a plain socket, a MySQL session's prepared statements,
// BEGIN/COMMIT/ROLLBACK go through mywire, one-off statements
// (Conn.Exec/Query) through database/sql and go-sql-driver on the same
// socket, which serves as the reference (text protocol).

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// connect opens a MariaDB session in Prepared mode with the protocol
// client enabled; the test skips when MariaDB is unreachable (fails with
// BP_REQUIRE_DBS=1).
func connect(t *testing.T) (*target.Connector, target.Conn) {
	t.Helper()
	tg := testdb.For(t, target.MySQL, "mywire")
	return testdb.Connect(t, tg, target.Options{})
}

// table returns a table name unique to this process and drops the table
// when the test ends.
func table(t *testing.T, c target.Conn, base string) string {
	t.Helper()
	name := fmt.Sprintf("%s_%d", base, os.Getpid())
	mustExec(t, c, "DROP TABLE IF EXISTS "+name)
	t.Cleanup(func() {
		if _, err := c.Exec(context.Background(), "DROP TABLE IF EXISTS "+name); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	})
	return name
}

func mustExec(t *testing.T, c target.Conn, q string, args ...any) int64 {
	t.Helper()
	n, err := c.Exec(ctxT(t), q, args...)
	if err != nil {
		t.Fatalf("exec %q: %v", q, err)
	}
	return n
}

func mustPrepare(t *testing.T, c target.Conn, q string) target.Stmt {
	t.Helper()
	st, err := c.Prepare(ctxT(t), q)
	if err != nil {
		t.Fatalf("prepare %q: %v", q, err)
	}
	return st
}

// textQuery runs q, which returns n columns, through the one-off path
// (database/sql, go-sql-driver's text protocol) and returns its rows as
// strings; NULL is nil.
func textQuery(t *testing.T, c target.Conn, n int, q string) [][]*string {
	t.Helper()
	rows, err := c.Query(ctxT(t), q)
	if err != nil {
		t.Fatalf("query %q: %v", q, err)
	}
	defer rows.Close()
	var out [][]*string
	for rows.Next() {
		vals := make([]sql.NullString, n)
		dest := make([]any, n)
		for i := range vals {
			dest[i] = &vals[i]
		}
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		row := make([]*string, n)
		for i, v := range vals {
			if v.Valid {
				s := v.String
				row[i] = &s
			}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// status reads a session status counter through the one-off path.
func status(t *testing.T, c target.Conn, name string) int64 {
	t.Helper()
	rows := textQuery(t, c, 2, "SHOW SESSION STATUS LIKE '"+name+"'")
	if len(rows) != 1 || rows[0][1] == nil {
		t.Fatalf("status %s: %d rows", name, len(rows))
	}
	n, err := strconv.ParseInt(*rows[0][1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestIntegrationWirePath checks that a MariaDB session in Prepared mode
// runs prepared statements on mywire (the Rows are the protocol client's),
// server-side (Com_stmt_prepare once per SQL text, Com_stmt_execute per
// run) on the same session as the driver (same connection id), and that
// the server omits column definitions from every execution
// (Resultset_metadata_skipped: they came with the prepare), which the
// client follows.
func TestIntegrationWirePath(t *testing.T) {
	_, c := connect(t)
	ctx := ctxT(t)
	tbl := table(t, c, "mw_path")
	mustExec(t, c, "CREATE TABLE "+tbl+" (id INT PRIMARY KEY, name VARCHAR(20))")
	mustExec(t, c, "INSERT INTO "+tbl+" VALUES (1, 'one'), (2, 'two'), (3, NULL)")

	prepares := status(t, c, "Com_stmt_prepare")
	executes := status(t, c, "Com_stmt_execute")
	skipped := status(t, c, "Resultset_metadata_skipped")

	sel := mustPrepare(t, c, "SELECT id, name FROM "+tbl+" WHERE id >= ? ORDER BY id")
	if again := mustPrepare(t, c, "SELECT id, name FROM "+tbl+" WHERE id >= ? ORDER BY id"); again != sel {
		t.Fatal("Prepare of the same SQL is not cached")
	}
	for run := 0; run < 3; run++ {
		rows, err := sel.Query(ctx, int64(2))
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%T", rows); got != "*target.wireRows" {
			t.Fatalf("rows are %s, want *target.wireRows (the mywire path)", got)
		}
		var got []string
		for rows.Next() {
			var id int64
			var name sql.NullString
			if err := rows.Scan(&id, &name); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%d:%v:%s", id, name.Valid, name.String))
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		if want := []string{"2:true:two", "3:false:"}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("run %d: rows %v, want %v", run, got, want)
		}
	}
	idStmt := mustPrepare(t, c, "SELECT CONNECTION_ID()")
	var wireID int64
	if err := idStmt.QueryRow(ctx, []any{&wireID}); err != nil {
		t.Fatal(err)
	}
	if err := sel.QueryRow(ctx, []any{new(int64), new(any)}, int64(99)); !errors.Is(err, target.ErrNoRows) {
		t.Fatalf("QueryRow without rows: %v, want target.ErrNoRows", err)
	}

	if d := status(t, c, "Com_stmt_prepare") - prepares; d != 2 {
		t.Errorf("Com_stmt_prepare grew by %d, want 2 (one per SQL text)", d)
	}
	if d := status(t, c, "Com_stmt_execute") - executes; d != 5 {
		t.Errorf("Com_stmt_execute grew by %d, want 5", d)
	}
	if d := status(t, c, "Resultset_metadata_skipped") - skipped; d != 5 {
		// The column definitions sent with COM_STMT_PREPARE are cached:
		// no execution resends them.
		t.Errorf("Resultset_metadata_skipped grew by %d, want 5 (every execution, without column definitions)", d)
	}
	driverID := textQuery(t, c, 1, "SELECT CONNECTION_ID()")
	if *driverID[0][0] != strconv.FormatInt(wireID, 10) {
		t.Fatalf("connection id %d on mywire, %s through the driver: not the same session", wireID, *driverID[0][0])
	}
}

// typeCols are the columns of the type table: name, SQL type, the value
// of row 1 as an SQL literal, the value of row 3 (edge values).
var typeCols = []struct {
	name, typ, lit1, lit3 string
	// anyKind is what *any may receive (see anyText): "int", "uint",
	// "float32", "float64", "bytes".
	anyKind string
}{
	{"c_tiny", "TINYINT", "-128", "0", "int"},
	{"c_utiny", "TINYINT UNSIGNED", "255", "0", "int"},
	{"c_small", "SMALLINT", "-32768", "32767", "int"},
	{"c_medium", "MEDIUMINT", "-8388608", "8388607", "int"},
	{"c_int", "INT", "-2147483648", "2147483647", "int"},
	{"c_uint", "INT UNSIGNED", "4294967295", "0", "int"},
	{"c_big", "BIGINT", "-9223372036854775808", "9223372036854775807", "int"},
	{"c_ubig", "BIGINT UNSIGNED", "18446744073709551615", "9223372036854775808", "uint"},
	{"c_float", "FLOAT", "3.14", "-0.5", "float32"},
	{"c_double", "DOUBLE", "2.718281828459045", "0.1", "float64"},
	{"c_dec2", "DECIMAL(12,2)", "-1234567890.12", "0.05", "bytes"},
	{"c_dec4", "DECIMAL(12,4)", "12345678.1234", "-0.0001", "bytes"},
	{"c_char", "CHAR(5)", "'ab'", "''", "bytes"},
	{"c_varchar", "VARCHAR(50)", "'héllo wörld'", "''", "bytes"},
	{"c_text", "TEXT", "REPEAT('tx', 200)", "''", "bytes"},
	{"c_blob", "BLOB", "X'00FF10FE'", "''", "bytes"},
	{"c_date", "DATE", "'2024-02-29'", "'1000-01-01'", "bytes"},
	{"c_datetime", "DATETIME", "'2024-02-29 13:14:15'", "'9999-12-31 23:59:59'", "bytes"},
	{"c_datetime6", "DATETIME(6)", "'2024-02-29 13:14:15.123456'", "'2024-01-01 00:00:00'", "bytes"},
	{"c_ts", "TIMESTAMP NULL", "'2024-02-29 13:14:15'", "'2001-09-09 01:46:40'", "bytes"},
	{"c_time", "TIME", "'-12:34:56'", "'838:59:59'", "bytes"},
	{"c_time3", "TIME(3)", "'123:45:06.789'", "'-00:00:00.5'", "bytes"},
	{"c_year", "YEAR", "2024", "1901", "int"},
	{"c_enum", "ENUM('a','b','c')", "'b'", "'a'", "bytes"},
	{"c_set", "SET('x','y','z')", "'x,z'", "''", "bytes"},
	{"c_bit", "BIT(8)", "b'10100101'", "b'0'", "bytes"},
	{"c_json", "JSON", `'{"a": [1, 2]}'`, "'[]'", "bytes"},
}

// typeTable creates the type table with rows 1 (typical values), 2 (all
// NULL) and 3 (edge values), through the one-off path.
func typeTable(t *testing.T, c target.Conn) (tbl, colList string) {
	tbl = table(t, c, "mw_types")
	var defs, names, row1, row2, row3 []string
	for _, col := range typeCols {
		defs = append(defs, col.name+" "+col.typ)
		names = append(names, col.name)
		row1 = append(row1, col.lit1)
		row2 = append(row2, "NULL")
		row3 = append(row3, col.lit3)
	}
	mustExec(t, c, "CREATE TABLE "+tbl+" (id INT PRIMARY KEY, "+strings.Join(defs, ", ")+")")
	colList = strings.Join(names, ", ")
	mustExec(t, c, "INSERT INTO "+tbl+" (id, "+colList+") VALUES (1, "+strings.Join(row1, ", ")+"), (2, "+
		strings.Join(row2, ", ")+"), (3, "+strings.Join(row3, ", ")+")")
	return tbl, colList
}

// anyText renders what *any received as the text protocol would show it,
// checking that the Go type fits the column: int64 for integers, float64
// (or float32) for FLOAT and DOUBLE, []byte for the rest; unsigned
// BIGINT values above MaxInt64 may be uint64 or []byte
// (TestBugScannerValues).
func anyText(t *testing.T, v any, kind string) *string {
	t.Helper()
	var s, got string
	switch x := v.(type) {
	case nil:
		return nil
	case int64:
		s, got = strconv.FormatInt(x, 10), "int"
	case uint64:
		s, got = strconv.FormatUint(x, 10), "uint"
	case float32:
		s, got = strconv.FormatFloat(float64(x), 'g', -1, 32), "float32"
	case float64:
		bits := 64
		got = "float64"
		if kind == "float32" { // FLOAT widened (TestBugScannerValues)
			bits, got = 32, "float32"
		}
		s = strconv.FormatFloat(x, 'g', -1, bits)
	case []byte:
		s, got = string(x), "bytes"
	default:
		t.Errorf("*any got %T", v)
	}
	if got != kind && !(kind == "uint" && got == "bytes") && !(kind == "uint" && got == "int") {
		t.Errorf("*any got %T for a %s column", v, kind)
	}
	return &s
}

func show(p *string) string {
	if p == nil {
		return "NULL"
	}
	return strconv.Quote(*p)
}

// TestIntegrationTypes checks that every column type read with a prepared
// statement (binary protocol, mywire) into *string, *[]byte,
// *sql.RawBytes, *sql.NullString and *any gives exactly the text the same
// query returns through the text protocol (go-sql-driver), for typical
// values, NULLs and edge values; and that a row written with a prepared
// INSERT from Go values reads back identical to the literal one.
func TestIntegrationTypes(t *testing.T) {
	_, c := connect(t)
	ctx := ctxT(t)
	tbl, colList := typeTable(t, c)
	n := len(typeCols)

	// A copy of row 1 written from Go values with a prepared statement.
	ins := mustPrepare(t, c, "INSERT INTO "+tbl+" (id, "+colList+") VALUES (?"+strings.Repeat(", ?", n)+")")
	args := []any{
		int64(4), int8(-128), uint8(255), int16(-32768), int32(-8388608), int32(-2147483648), uint32(4294967295),
		int64(-9223372036854775808), uint64(18446744073709551615), float32(3.14), 2.718281828459045,
		target.Cents(-123456789012), target.Decimal4(123456781234), "ab", "héllo wörld", strings.Repeat("tx", 200),
		[]byte{0, 0xff, 0x10, 0xfe}, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 2, 29, 13, 14, 15, 0, time.UTC), time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC),
		"2024-02-29 13:14:15", "-12:34:56", "123:45:06.789", 2024, "b", "x,z", []byte{0xa5}, `{"a": [1, 2]}`,
	}
	if len(args) != n+1 {
		t.Fatalf("%d arguments for %d columns", len(args), n+1)
	}
	if k, err := ins.Exec(ctx, args...); k != 1 || err != nil {
		t.Fatalf("prepared insert: %d, %v", k, err)
	}

	text := textQuery(t, c, n, "SELECT "+colList+" FROM "+tbl+" ORDER BY id")
	if len(text) != 4 {
		t.Fatalf("%d rows through the text protocol, want 4", len(text))
	}
	for i, col := range typeCols {
		if text[1][i] != nil || text[0][i] == nil || text[2][i] == nil {
			t.Fatalf("%s: row 2 must be NULL, rows 1 and 3 not", col.name)
		}
		if show(text[3][i]) != show(text[0][i]) {
			t.Errorf("%s: prepared insert stored %s, the literal %s", col.name, show(text[3][i]), show(text[0][i]))
		}
	}
	t.Logf("row 1 (text protocol): %v", func() []string {
		var out []string
		for i, v := range text[0] {
			out = append(out, typeCols[i].name+"="+show(v))
		}
		return out
	}())

	sel := mustPrepare(t, c, "SELECT "+colList+" FROM "+tbl+" WHERE id = ?")
	for id := 1; id <= 4; id++ {
		want := text[id-1]
		dests := map[string]func() ([]any, func(i int) *string){
			"[]byte": func() ([]any, func(int) *string) {
				vals := make([][]byte, n)
				return ptrs(vals), func(i int) *string {
					if vals[i] == nil {
						return nil
					}
					s := string(vals[i])
					return &s
				}
			},
			"RawBytes": func() ([]any, func(int) *string) {
				// Non-nil buffers: an empty string into a nil RawBytes
				// reads as NULL (TestBugRawBytesEmptyString).
				vals := make([]sql.RawBytes, n)
				for i := range vals {
					vals[i] = make(sql.RawBytes, 0, 8)
				}
				return ptrs(vals), func(i int) *string {
					if vals[i] == nil {
						return nil
					}
					s := string(vals[i])
					return &s
				}
			},
			"NullString": func() ([]any, func(int) *string) {
				vals := make([]sql.NullString, n)
				return ptrs(vals), func(i int) *string {
					if !vals[i].Valid {
						return nil
					}
					return &vals[i].String
				}
			},
			"any": func() ([]any, func(int) *string) {
				vals := make([]any, n)
				return ptrs(vals), func(i int) *string { return anyText(t, vals[i], typeCols[i].anyKind) }
			},
		}
		if id != 2 {
			dests["string"] = func() ([]any, func(int) *string) {
				vals := make([]string, n)
				return ptrs(vals), func(i int) *string { return &vals[i] }
			}
		}
		for name, mk := range dests {
			dest, get := mk()
			rows, err := sel.Query(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if !rows.Next() {
				t.Fatalf("row %d missing: %v", id, rows.Err())
			}
			if err := rows.Scan(dest...); err != nil {
				t.Fatalf("row %d into %s: %v", id, name, err)
			}
			for i, col := range typeCols {
				if name == "NullString" && col.typ == "FLOAT" {
					continue // float64 reaches Scanners (TestBugScannerValues)
				}
				if got := get(i); show(got) != show(want[i]) {
					t.Errorf("row %d %s (%s) into %s: prepared %s, text %s", id, col.name, col.typ, name, show(got), show(want[i]))
				}
			}
			if rows.Next() {
				t.Fatalf("row %d: more than one row", id)
			}
			if err := rows.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func ptrs[T any](vals []T) []any {
	out := make([]any, len(vals))
	for i := range vals {
		out[i] = &vals[i]
	}
	return out
}

// TestIntegrationMoneyAndTime checks target.Cents and target.Decimal4 as
// prepared arguments and scan destinations (DECIMAL columns and SUM()),
// and time.Time arguments (rendered in the session's location, UTC) and
// *time.Time destinations on DATE, DATETIME(6) and TIMESTAMP columns.
func TestIntegrationMoneyAndTime(t *testing.T) {
	_, c := connect(t)
	ctx := ctxT(t)
	tbl := table(t, c, "mw_money")
	mustExec(t, c, "CREATE TABLE "+tbl+" (id INT PRIMARY KEY, amount DECIMAL(12,2), rate DECIMAL(4,4), d DATE, dt DATETIME(6), ts TIMESTAMP NULL)")
	ins := mustPrepare(t, c, "INSERT INTO "+tbl+" VALUES (?, ?, ?, ?, ?, ?)")
	plus2 := time.FixedZone("UTC+2", 2*3600)
	rowsIn := []struct {
		id     int64
		amount target.Cents
		rate   target.Decimal4
		d, dt  time.Time
		ts     time.Time
		text   []string // amount, rate, d, dt, ts as the text protocol shows them
	}{
		{1, -1234, 5, time.Date(2023, 7, 8, 0, 0, 0, 0, time.UTC), time.Date(2023, 7, 8, 9, 10, 11, 123456000, time.UTC),
			time.Date(2023, 7, 8, 12, 0, 0, 0, plus2),
			[]string{"-12.34", "0.0005", "2023-07-08", "2023-07-08 09:10:11.123456", "2023-07-08 10:00:00"}},
		{2, 9999999999, 9999, time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC), time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC),
			time.Date(2001, 9, 9, 1, 46, 40, 0, time.UTC),
			[]string{"99999999.99", "0.9999", "1999-12-31", "1999-12-31 23:59:59.000000", "2001-09-09 01:46:40"}},
		{3, 5, 0, time.Date(2024, 2, 29, 0, 0, 0, 0, plus2), time.Date(2024, 2, 29, 1, 0, 0, 500000000, plus2),
			time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC),
			[]string{"0.05", "0.0000", "2024-02-28", "2024-02-28 23:00:00.500000", "2024-02-29 00:00:00"}},
	}
	mustExec(t, c, "SET time_zone = '+00:00'")
	for _, r := range rowsIn {
		if n, err := ins.Exec(ctx, r.id, r.amount, r.rate, r.d, r.dt, r.ts); n != 1 || err != nil {
			t.Fatalf("insert %d: %d, %v", r.id, n, err)
		}
	}
	text := textQuery(t, c, 5, "SELECT amount, rate, d, dt, ts FROM "+tbl+" ORDER BY id")
	for i, r := range rowsIn {
		for j, want := range r.text {
			if show(text[i][j]) != strconv.Quote(want) {
				t.Errorf("row %d column %d: stored %s, want %q", r.id, j, show(text[i][j]), want)
			}
		}
	}

	sel := mustPrepare(t, c, "SELECT amount, rate, d, dt, ts FROM "+tbl+" WHERE id = ?")
	byAmount := mustPrepare(t, c, "SELECT id FROM "+tbl+" WHERE amount = ? AND rate = ? AND dt = ?")
	for _, r := range rowsIn {
		var amount target.Cents
		var rate target.Decimal4
		var d, dt, ts time.Time
		if err := sel.QueryRow(ctx, []any{&amount, &rate, &d, &dt, &ts}, r.id); err != nil {
			t.Fatal(err)
		}
		wantD := time.Date(r.d.In(time.UTC).Year(), r.d.In(time.UTC).Month(), r.d.In(time.UTC).Day(), 0, 0, 0, 0, time.UTC)
		if amount != r.amount || rate != r.rate || !d.Equal(wantD) || !dt.Equal(r.dt) || !ts.Equal(r.ts) {
			t.Errorf("row %d: %v %v %v %v %v; want %v %v %v %v %v", r.id, amount, rate, d, dt, ts, r.amount, r.rate, wantD, r.dt, r.ts)
		}
		if dt.Location() != time.UTC {
			t.Errorf("row %d: *time.Time in %v, want UTC (the session's loc)", r.id, dt.Location())
		}
		var id int64
		if err := byAmount.QueryRow(ctx, []any{&id}, r.amount, r.rate, r.dt); err != nil || id != r.id {
			t.Errorf("lookup by Cents, Decimal4, time.Time: id %d, %v; want %d", id, err, r.id)
		}
	}
	var sum target.Cents
	if err := mustPrepare(t, c, "SELECT SUM(amount) FROM "+tbl).QueryRow(ctx, []any{&sum}); err != nil || sum != 9999998770 {
		t.Fatalf("SUM into Cents: %v, %v; want 99999987.70", sum, err)
	}
}

// TestIntegrationTransactions checks BEGIN, COMMIT and ROLLBACK on mywire
// (COM_QUERY) against the data and @@in_transaction, and a 4 MiB value
// round trip (many TCP reads and writes).
func TestIntegrationTransactions(t *testing.T) {
	_, c := connect(t)
	ctx := ctxT(t)
	tbl := table(t, c, "mw_tx")
	mustExec(t, c, "CREATE TABLE "+tbl+" (id INT PRIMARY KEY, b MEDIUMBLOB) ENGINE=InnoDB")
	ins := mustPrepare(t, c, "INSERT INTO "+tbl+" VALUES (?, ?)")
	inTx := mustPrepare(t, c, "SELECT @@in_transaction")
	count := mustPrepare(t, c, "SELECT COUNT(*) FROM "+tbl)
	get := func(st target.Stmt, args ...any) int64 {
		t.Helper()
		var n int64
		if err := st.QueryRow(ctx, []any{&n}, args...); err != nil {
			t.Fatal(err)
		}
		return n
	}
	big := bytes.Repeat([]byte("0123456789abcdef\x00\xff"), 4<<20/18)
	steps := []struct {
		end        func(context.Context) error
		wantCount  int64
		insertedID int64
	}{
		{c.Rollback, 0, 1},
		{c.Commit, 1, 2},
		{c.Rollback, 1, 3},
	}
	for _, st := range steps {
		if err := c.Begin(ctx, true); err != nil {
			t.Fatal(err)
		}
		if get(inTx) != 1 {
			t.Fatal("@@in_transaction = 0 after Begin")
		}
		if n, err := ins.Exec(ctx, st.insertedID, big); n != 1 || err != nil {
			t.Fatalf("insert: %d, %v", n, err)
		}
		if err := st.end(ctx); err != nil {
			t.Fatal(err)
		}
		if get(inTx) != 0 {
			t.Fatal("@@in_transaction = 1 after the end of the transaction")
		}
		if n := get(count); n != st.wantCount {
			t.Fatalf("count %d, want %d", n, st.wantCount)
		}
	}
	var back []byte
	if err := mustPrepare(t, c, "SELECT b FROM "+tbl+" WHERE id = ?").QueryRow(ctx, []any{&back}, 2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, big) {
		t.Fatalf("read back %d bytes, wrote %d (equal %v)", len(back), len(big), bytes.Equal(back, big))
	}
}

// connID returns the session's connection id through mywire.
func connID(t *testing.T, c target.Conn) int64 {
	t.Helper()
	var id int64
	if err := mustPrepare(t, c, "SELECT CONNECTION_ID()").QueryRow(ctxT(t), []any{&id}); err != nil {
		t.Fatal(err)
	}
	return id
}

// waitInUpdate polls until session id has its UPDATE in flight on the
// server (or done fails the test first with the statement's own result).
// It watches the processlist, not INNODB_TRX's 'LOCK WAIT': under I/O load
// (another package's bulk load on the same server) InnoDB's view showed the
// waiting transaction as RUNNING for the whole 10 s poll. The deadlock
// subtest does not need the order anyway: whichever request comes second
// closes the cycle.
func waitInUpdate(t *testing.T, admin target.Conn, id int64, done <-chan error) {
	t.Helper()
	q := fmt.Sprintf("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = %d AND INFO LIKE 'UPDATE%%'", id)
	for start := time.Now(); time.Since(start) < 30*time.Second; time.Sleep(10 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("session %d: update returned before the other session asked for its row: %v", id, err)
		default:
		}
		if rows := textQuery(t, admin, 1, q); *rows[0][0] == "1" {
			return
		}
	}
	t.Fatalf("session %d never ran its update", id)
}

// TestIntegrationLockErrors checks that server errors from statements run
// on mywire classify like the driver's: a lock wait timeout
// (innodb_lock_wait_timeout = 1) as ClassLockTimeout, a deadlock between
// two sessions as ClassDeadlock for exactly one of them, and that the
// sessions stay usable.
func TestIntegrationLockErrors(t *testing.T) {
	conn, a := connect(t)
	ctx := ctxT(t)
	b, err := conn.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tbl := table(t, a, "mw_lock")
	mustExec(t, a, "CREATE TABLE "+tbl+" (id INT PRIMARY KEY, v INT) ENGINE=InnoDB")
	mustExec(t, a, "INSERT INTO "+tbl+" VALUES (1, 0), (2, 0)")
	for _, s := range []target.Conn{a, b} {
		mustExec(t, s, "SET SESSION innodb_lock_wait_timeout = 1")
	}
	updA := mustPrepare(t, a, "UPDATE "+tbl+" SET v = v + 1 WHERE id = ?")
	updB := mustPrepare(t, b, "UPDATE "+tbl+" SET v = v + 1 WHERE id = ?")
	idA := connID(t, a)

	t.Run("lock wait timeout", func(t *testing.T) {
		if err := a.Begin(ctx, true); err != nil {
			t.Fatal(err)
		}
		if _, err := updA.Exec(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if err := b.Begin(ctx, true); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err := updB.Exec(ctx, 1)
		var me *mysql.MySQLError
		if got := target.Classify(err); got != target.ClassLockTimeout || !errors.As(err, &me) || me.Number != 1205 {
			t.Fatalf("blocked update: class %v, err %v; want lock_timeout (1205)", got, err)
		}
		if el := time.Since(start); el < 900*time.Millisecond || el > 10*time.Second {
			t.Errorf("lock wait lasted %v, want about 1 s", el)
		}
		if n, err := updB.Exec(ctx, 2); n != 1 || err != nil {
			t.Fatalf("b after the timeout: %d, %v", n, err)
		}
		if err := b.Rollback(ctx); err != nil {
			t.Fatal(err)
		}
		if err := a.Rollback(ctx); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("deadlock", func(t *testing.T) {
		for _, s := range []target.Conn{a, b} {
			mustExec(t, s, "SET SESSION innodb_lock_wait_timeout = 10")
		}
		if err := a.Begin(ctx, true); err != nil {
			t.Fatal(err)
		}
		if err := b.Begin(ctx, true); err != nil {
			t.Fatal(err)
		}
		if _, err := updA.Exec(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if _, err := updB.Exec(ctx, 2); err != nil {
			t.Fatal(err)
		}
		errA := make(chan error, 1)
		go func() {
			_, err := updA.Exec(ctx, 2) // waits for b
			errA <- err
		}()
		waitInUpdate(t, conn2(t, conn), idA, errA)
		_, eb := updB.Exec(ctx, 1) // closes the cycle
		ea := <-errA
		classes := []target.Class{target.Classify(ea), target.Classify(eb)}
		deadlocks := 0
		for i, cl := range classes {
			switch cl {
			case target.ClassDeadlock:
				deadlocks++
			case target.ClassNone:
			default:
				t.Errorf("session %d: class %v (%v)", i, cl, []error{ea, eb}[i])
			}
		}
		if deadlocks != 1 {
			t.Fatalf("classes %v (a: %v, b: %v); want exactly one deadlock", classes, ea, eb)
		}
		if err := a.Rollback(ctx); err != nil {
			t.Fatal(err)
		}
		if err := b.Rollback(ctx); err != nil {
			t.Fatal(err)
		}
		var v int64
		if err := mustPrepare(t, a, "SELECT SUM(v) FROM "+tbl).QueryRow(ctx, []any{&v}); err != nil || v != 0 {
			t.Fatalf("after rollbacks: sum %d, %v", v, err)
		}
	})
}

// conn2 opens one more session of conn for the test.
func conn2(t *testing.T, conn *target.Connector) target.Conn {
	t.Helper()
	c, err := conn.Connect(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestIntegrationKilledSession checks a session killed from another one
// (KILL <id>): the next statement on mywire fails with an error Classify
// maps to ClassLostConnection, so do later ones, Close returns without
// hanging or panicking, and the Connector's next session works on mywire.
func TestIntegrationKilledSession(t *testing.T) {
	conn, victim := connect(t)
	ctx := ctxT(t)
	killer := conn2(t, conn)
	sel := mustPrepare(t, victim, "SELECT CONNECTION_ID()")
	other := mustPrepare(t, victim, "SELECT 1")
	var id int64
	if err := sel.QueryRow(ctx, []any{&id}); err != nil {
		t.Fatal(err)
	}
	mustExec(t, killer, fmt.Sprintf("KILL %d", id))
	time.Sleep(100 * time.Millisecond)

	err := sel.QueryRow(ctx, []any{&id})
	if got := target.Classify(err); got != target.ClassLostConnection {
		t.Fatalf("after KILL: class %v (%v), want lost_connection", got, err)
	}
	t.Logf("after KILL: %v", err)
	if _, err := other.Exec(ctx); target.Classify(err) != target.ClassLostConnection || !errors.Is(err, mysql.ErrInvalidConn) {
		t.Fatalf("later statement: %v", err)
	}
	if err := victim.Begin(ctx, true); target.Classify(err) != target.ClassLostConnection {
		t.Fatalf("later Begin: %v", err)
	}
	closed := make(chan any, 1)
	go func() {
		defer func() { closed <- recover() }()
		_ = victim.Close()
	}()
	select {
	case p := <-closed:
		if p != nil {
			t.Fatalf("Close panicked: %v", p)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Close hangs")
	}

	fresh := conn2(t, conn)
	if got := connID(t, fresh); got == id {
		t.Fatalf("fresh session has the killed id %d", id)
	}
	rows, err := mustPrepare(t, fresh, "SELECT 1").Query(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%T", rows); got != "*target.wireRows" {
		t.Errorf("fresh session rows are %s, want *target.wireRows", got)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
}

// parityDests are the destination kinds compared between mywire and the
// driver's prepared statements.
var parityDests = []string{"string", "[]byte", "NullString", "any", "RawBytes", "NullInt64", "NullFloat64", "int64", "float64", "uint64", "bool"}

func parityDest(kind string) any {
	switch kind {
	case "string":
		return new(string)
	case "[]byte":
		return new([]byte)
	case "NullString":
		return new(sql.NullString)
	case "any":
		return new(any)
	case "RawBytes":
		return new(sql.RawBytes)
	case "NullInt64":
		return new(sql.NullInt64)
	case "int64":
		return new(int64)
	case "float64":
		return new(float64)
	case "uint64":
		return new(uint64)
	case "bool":
		return new(bool)
	}
	return new(sql.NullFloat64)
}

// scanOne scans column i of the row with the given id into a fresh
// destination of kind and renders the result (type and value, or the
// error).
func scanOne(t *testing.T, st target.Stmt, id, i, n int, kind string) string {
	t.Helper()
	rows, err := st.Query(ctxT(t), id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		t.Fatalf("row %d missing: %v", id, rows.Err())
	}
	dest := make([]any, n)
	for j := range dest {
		dest[j] = new(any)
	}
	dest[i] = parityDest(kind)
	if err := rows.Scan(dest...); err != nil {
		return "error"
	}
	v := reflect.ValueOf(dest[i]).Elem().Interface()
	return fmt.Sprintf("%T %#v", v, v)
}

// knownDivergence reports the cells where mywire is known to differ from
// go-sql-driver (TestBugScannerValues, TestBugRawBytesEmptyString,
// TestBugAnyEmptyString).
func knownDivergence(colTyp, kind string, text *string) bool {
	switch {
	case colTyp == "FLOAT" && (kind == "NullString" || kind == "any" || kind == "NullFloat64" || kind == "float64"):
		return true
	case text != nil && *text == "" && (kind == "RawBytes" || kind == "any"):
		return true
	case colTyp == "BIGINT UNSIGNED" && kind == "any" && text != nil && len(*text) >= 19:
		return true
	}
	return false
}

// parity compares every column of the type table scanned into every
// parityDests kind through mywire and through go-sql-driver's prepared
// statements (--mysql-client driver): same type and value, or
// both an error. skipKnown leaves out the known divergences.
func parity(t *testing.T, skipKnown bool) {
	_, wire := connect(t)
	tbl, colList := typeTable(t, wire)
	_, drv := testdb.Connect(t, testdb.For(t, target.MySQL, "mywire"), target.Options{MySQLClient: target.MySQLClientDriver})
	q := "SELECT " + colList + " FROM " + tbl + " WHERE id = ?"
	ws, ds := mustPrepare(t, wire, q), mustPrepare(t, drv, q)
	n := len(typeCols)
	text := textQuery(t, wire, n, "SELECT "+colList+" FROM "+tbl+" ORDER BY id")
	if rows, err := ds.Query(ctxT(t), 1); err != nil || fmt.Sprintf("%T", rows) != "*target.mysqlRows" {
		t.Fatalf("driver session rows %T, %v; want *target.mysqlRows", rows, err)
	} else {
		rows.Close()
	}
	for id := 1; id <= 3; id++ {
		for i, col := range typeCols {
			for _, kind := range parityDests {
				if skipKnown && knownDivergence(col.typ, kind, text[id-1][i]) {
					continue
				}
				w := scanOne(t, ws, id, i, n, kind)
				d := scanOne(t, ds, id, i, n, kind)
				if w != d {
					t.Errorf("row %d %s (%s) into %s: mywire %s, go-sql-driver %s", id, col.name, col.typ, kind, w, d)
				}
			}
		}
	}
}

// TestIntegrationDriverParity checks that mywire scans every column type
// into string, []byte, sql.RawBytes, sql.Null* and any exactly as
// go-sql-driver's prepared statements (the path it replaces) do, or fails
// where they fail, apart from the known divergences.
func TestIntegrationDriverParity(t *testing.T) { parity(t, true) }

// TestBugIntegrationDriverParity is TestIntegrationDriverParity including
// the known divergences (TestBugScannerValues, TestBugRawBytesEmptyString,
// TestBugAnyEmptyString) against the real server.
func TestBugIntegrationDriverParity(t *testing.T) {
	t.Skip("BUG: FLOAT into sql.NullString/NullFloat64/float64/any, '' into nil RawBytes/any and big unsigned into any differ from go-sql-driver")
	parity(t, false)
}
