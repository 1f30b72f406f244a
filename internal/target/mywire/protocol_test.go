package mywire

import (
	"bytes"
	"database/sql"
	"errors"
	"reflect"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// Protocol tests: a Conn over net.Pipe (the generic net.Conn path) against
// the scripted fake server of fake_test.go, for every capability
// combination.

const (
	flagNotNull = 0x01
	statusAC    = 0x0002 // SERVER_STATUS_AUTOCOMMIT
	statusMore  = statusMoreResults
)

// wantServerError checks that err is exactly this *mysql.MySQLError.
func wantServerError(t *testing.T, err error, number uint16, state, msg string) {
	t.Helper()
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		t.Fatalf("err = %v (%T), want *mysql.MySQLError %d", err, err, number)
	}
	want := mysql.MySQLError{Number: number, Message: msg}
	copy(want.SQLState[:], state)
	if *me != want {
		t.Fatalf("server error = %+v, want %+v", *me, want)
	}
}

// TestPrepare checks COM_STMT_PREPARE: the command bytes, statement id,
// parameter count and parsed column definitions (parameter definitions
// and EOF packets skipped as the capabilities require), statements without
// parameters or columns, and that a server ERR is returned as
// *mysql.MySQLError with the session still usable.
func TestPrepare(t *testing.T) {
	params1 := []colSpec{{name: "?", typ: typeVarString}}
	params2 := []colSpec{{name: "?", typ: typeLongLong}, {name: "?", typ: typeVarString}}
	cols := []colSpec{
		{name: "id", typ: typeLongLong, flags: flagUnsigned | flagNotNull},
		{name: "amount", typ: typeNewDecimal, decimals: 2},
		{name: "ts", typ: typeDateTime, decimals: 6},
	}
	const q1 = "SELECT id, amount, ts FROM t WHERE k = ?"
	for _, caps := range capsMatrix {
		t.Run(capsName(caps), func(t *testing.T) {
			c, srv := startFake(t, caps, func(s *fakeServer) {
				s.expect(queryCmd(comStmtPrepare, q1))
				s.reply(s.prepareOK(7, params1, cols)...)
				s.expect(queryCmd(comStmtPrepare, "DO 1"))
				s.reply(s.prepareOK(8, nil, nil)...)
				s.expect(queryCmd(comStmtPrepare, "INSERT INTO t VALUES (?, ?)"))
				s.reply(s.prepareOK(0xfedcba98, params2, nil)...)
				s.expect(queryCmd(comStmtPrepare, "SELECT nope"))
				s.reply(errPacket(1146, "42S02", "Table 'bp.nope' doesn't exist"))
				s.expect(queryCmd(comStmtPrepare, "SELECT 1"))
				s.reply(s.prepareOK(10, nil, []colSpec{{name: "1", typ: typeLongLong, flags: flagNotNull}})...)
			})
			st, err := c.Prepare(q1)
			if err != nil {
				t.Fatal(err)
			}
			wantCols := []column{cols[0].column(), cols[1].column(), cols[2].column()}
			if st.id != 7 || st.NumInput() != 1 || !reflect.DeepEqual(st.cols, wantCols) {
				t.Fatalf("stmt id %d params %d cols %+v; want 7, 1, %+v", st.id, st.NumInput(), st.cols, wantCols)
			}
			if !wantCols[0].unsigned || wantCols[1].decimals != 2 || wantCols[2].name != "ts" {
				t.Fatalf("test columns not as intended: %+v", wantCols)
			}
			do, err := c.Prepare("DO 1")
			if err != nil || do.id != 8 || do.NumInput() != 0 || len(do.cols) != 0 {
				t.Fatalf("DO 1: %+v, %v", do, err)
			}
			ins, err := c.Prepare("INSERT INTO t VALUES (?, ?)")
			if err != nil || ins.id != 0xfedcba98 || ins.NumInput() != 2 || len(ins.cols) != 0 {
				t.Fatalf("INSERT: %+v, %v", ins, err)
			}
			_, err = c.Prepare("SELECT nope")
			wantServerError(t, err, 1146, "42S02", "Table 'bp.nope' doesn't exist")
			if c.Err() != nil {
				t.Fatalf("server error broke the session: %v", c.Err())
			}
			one, err := c.Prepare("SELECT 1")
			if err != nil || one.id != 10 || !reflect.DeepEqual(one.cols, []column{{typ: typeLongLong, name: "1"}}) {
				t.Fatalf("after the error: %+v, %v", one, err)
			}
			if want := []*Stmt{st, do, ins, one}; !reflect.DeepEqual(c.stmts, want) {
				t.Fatalf("c.stmts has %d statements, want the 4 prepared", len(c.stmts))
			}
			srv.wait()
		})
	}
}

// TestServerErrorPacket checks the decoding of ERR packets (with and
// without the '#' SQLSTATE marker, without a message, malformed) and that
// none of them ends the session.
func TestServerErrorPacket(t *testing.T) {
	tests := []struct {
		payload []byte
		number  uint16
		state   string
		msg     string
	}{
		{errPacket(1064, "42000", "You have an error in your SQL syntax"), 1064, "42000", "You have an error in your SQL syntax"},
		{errPacket(1213, "40001", "Deadlock found when trying to get lock"), 1213, "40001", "Deadlock found when trying to get lock"},
		{errPacket(1927, "70100", ""), 1927, "70100", ""},
		{errPacket(1105, "", "Unknown error"), 1105, "", "Unknown error"},
		{errPacket(1105, "", "#12"), 1105, "", "#12"}, // too short for a state
		{[]byte{0xff, 0x05, 0x04}, 0x0405, "", ""},
		{[]byte{0xff, 0x05}, 0, "", "malformed error packet"},
	}
	c, _ := startFake(t, Caps{DeprecateEOF: true, Plain: true}, func(s *fakeServer) {
		for _, tt := range tests {
			s.expect(queryCmd(comQuery, "X"))
			s.reply(tt.payload)
		}
		s.expect(queryCmd(comQuery, "COMMIT"))
		s.reply(ok(0, statusAC))
	})
	for _, tt := range tests {
		_, err := c.SimpleExec("X")
		wantServerError(t, err, tt.number, tt.state, tt.msg)
	}
	if _, err := c.SimpleExec("COMMIT"); err != nil || c.Err() != nil {
		t.Fatalf("after server errors: %v, %v", err, c.Err())
	}
}

// queryStmt is the statement most protocol tests run.
var (
	queryParams = []colSpec{{name: "?", typ: typeVarString}}
	queryCols   = []colSpec{
		{name: "id", typ: typeLongLong, flags: flagNotNull},
		{name: "name", typ: typeVarString},
		{name: "score", typ: typeDouble, decimals: 0x1f},
	}
)

const querySQL = "SELECT id, name, score FROM t WHERE grp = ?"

// scanned is one row of queryCols.
type scanned struct {
	id    int64
	name  sql.NullString
	score sql.NullFloat64
}

func readAll(t *testing.T, r *Rows) []scanned {
	t.Helper()
	var out []scanned
	for r.Next() {
		var s scanned
		if err := r.Scan(&s.id, &s.name, &s.score); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// TestQuery checks COM_STMT_EXECUTE with rows, per capability set: the
// execute command bytes (types bound on the first run only), results of
// 0, 1 and 3 rows with NULL columns scanned into the right values, column
// definitions omitted by the server on repeated runs (metadata-follows 0)
// where the session allows it, Rows.Close draining unread rows, and the
// next command in step afterwards.
func TestQuery(t *testing.T) {
	rows3 := [][]byte{
		binRow(i64(2), lstr("b"), nil),
		binRow(i64(3), nil, f64(1.25)),
		binRow(i64(-4), lstr(""), f64(-0.5)),
	}
	want3 := []scanned{
		{2, sql.NullString{String: "b", Valid: true}, sql.NullFloat64{}},
		{3, sql.NullString{}, sql.NullFloat64{Float64: 1.25, Valid: true}},
		{-4, sql.NullString{String: "", Valid: true}, sql.NullFloat64{Float64: -0.5, Valid: true}},
	}
	for _, tr := range transports {
		for _, caps := range capsMatrix {
			t.Run(tr+"/"+capsName(caps), func(t *testing.T) { testQuery(t, tr, caps, rows3, want3) })
		}
	}
}

func testQuery(t *testing.T, tr string, caps Caps, rows3 [][]byte, want3 []scanned) {
	meta := !omitsMetadata(caps)
	c, _ := startFakeOn(t, tr, caps, func(s *fakeServer) {
		s.expect(queryCmd(comStmtPrepare, querySQL))
		s.reply(s.prepareOK(3, queryParams, queryCols)...)
		s.expect(execCmd(3, []byte{0, 1, 0xfe, 0}, lstr("none")))
		s.reply(s.resultSet(queryCols, true, nil, statusAC)...)
		s.expect(execCmd(3, []byte{0, 0}, lstr("one")))
		s.reply(s.resultSet(queryCols, meta, [][]byte{binRow(i64(1), lstr("a"), f64(0.5))}, statusAC)...)
		s.expect(execCmd(3, []byte{0, 0}, lstr("many")))
		s.reply(s.resultSet(queryCols, meta, rows3, statusAC)...)
		s.expect(execCmd(3, []byte{0, 0}, lstr("close")))
		s.reply(s.resultSet(queryCols, meta, rows3, statusAC)...)
		s.expect(queryCmd(comQuery, "COMMIT"))
		s.reply(ok(0, statusAC))
	})
	st, err := c.Prepare(querySQL)
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.Query([]any{"none"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Columns() != 3 {
		t.Fatalf("Columns() = %d, want 3", r.Columns())
	}
	if got := readAll(t, r); len(got) != 0 || r.Err() != nil {
		t.Fatalf("no rows: got %+v, err %v", got, r.Err())
	}
	if err := r.Scan(new(int64), new(any), new(any)); err == nil || err.Error() != "mywire: Scan called without a current row" {
		t.Fatalf("Scan after the end: %v", err)
	}

	r, err = st.Query([]any{"one"})
	if err != nil {
		t.Fatal(err)
	}
	want1 := []scanned{{1, sql.NullString{String: "a", Valid: true}, sql.NullFloat64{Float64: 0.5, Valid: true}}}
	if got := readAll(t, r); !reflect.DeepEqual(got, want1) || r.Err() != nil {
		t.Fatalf("one row: got %+v, err %v; want %+v", got, r.Err(), want1)
	}
	if r.Close() != nil || r.Next() {
		t.Fatalf("Close after the end: %v", r.Err())
	}

	r, err = st.Query([]any{"many"})
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, r); !reflect.DeepEqual(got, want3) || r.Err() != nil {
		t.Fatalf("three rows: got %+v, err %v; want %+v", got, r.Err(), want3)
	}

	r, err = st.Query([]any{"close"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Next() {
		t.Fatalf("first row missing: %v", r.Err())
	}
	if err := r.Close(); err != nil {
		t.Fatalf("Close with unread rows: %v", err)
	}
	if r.Next() {
		t.Fatal("Next after Close returned a row")
	}
	if _, err := c.SimpleExec("COMMIT"); err != nil {
		t.Fatalf("command after Close: %v", err)
	}
}

// TestQueryScanErrors checks Scan's argument count check and that a
// conversion failure names the column and leaves the session usable.
func TestQueryScanErrors(t *testing.T) {
	c, _ := startFake(t, Caps{DeprecateEOF: true, Plain: true}, func(s *fakeServer) {
		s.expect(queryCmd(comStmtPrepare, querySQL))
		s.reply(s.prepareOK(3, queryParams, queryCols)...)
		s.expect(execCmd(3, []byte{0, 1, 0xfe, 0}, lstr("x")))
		s.reply(s.resultSet(queryCols, true, [][]byte{binRow(i64(1), nil, f64(2.5))}, 0)...)
		s.expect(queryCmd(comQuery, "COMMIT"))
		s.reply(ok(0, 0))
	})
	st, err := c.Prepare(querySQL)
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.Query([]any{"x"})
	if err != nil || !r.Next() {
		t.Fatalf("query: %v %v", err, r.Err())
	}
	if err := r.Scan(new(int64), new(string)); err == nil || err.Error() != "sql: expected 3 destination arguments in Scan, not 2" {
		t.Fatalf("wrong destination count: %v", err)
	}
	err = r.Scan(new(int64), new(string), new(float64))
	if !errors.Is(err, errNull) || err.Error() != `sql: Scan error on column index 1, name "name": converting NULL is unsupported` {
		t.Fatalf("NULL into *string: %v", err)
	}
	var name any
	var score float64
	var id int64
	if err := r.Scan(&id, &name, &score); err != nil || id != 1 || name != nil || score != 2.5 {
		t.Fatalf("rescan: %d %v %v: %v", id, name, score, err)
	}
	if err := r.Close(); err != nil || c.Err() != nil {
		t.Fatalf("close: %v %v", err, c.Err())
	}
	if _, err := c.SimpleExec("COMMIT"); err != nil {
		t.Fatal(err)
	}
}

// TestExecuteMetadataReplacesColumns checks that column definitions sent
// with an execution (metadata-follows 1) replace the ones from prepare and
// are used to decode that execution's rows and later ones sent without
// metadata.
func TestExecuteMetadataReplacesColumns(t *testing.T) {
	for _, caps := range capsMatrix {
		t.Run(capsName(caps), func(t *testing.T) {
			before := []colSpec{{name: "v", typ: typeLongLong}}
			after := []colSpec{{name: "v2", typ: typeLong, flags: flagUnsigned}}
			c, _ := startFake(t, caps, func(s *fakeServer) {
				s.expect(queryCmd(comStmtPrepare, "SELECT * FROM t"))
				s.reply(s.prepareOK(1, nil, before)...)
				s.expect(execCmd(1))
				s.reply(s.resultSet(after, true, [][]byte{binRow(le32(0xffffffff))}, 0)...)
				s.expect(execCmd(1))
				s.reply(s.resultSet(after, !omitsMetadata(caps), [][]byte{binRow(le32(7))}, 0)...)
			})
			st, err := c.Prepare("SELECT * FROM t")
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []int64{0xffffffff, 7} {
				r, err := st.Query(nil)
				if err != nil {
					t.Fatal(err)
				}
				var v int64
				if !r.Next() || r.Scan(&v) != nil || v != want {
					t.Fatalf("v = %d, want %d (err %v)", v, want, r.Err())
				}
				if err := r.Close(); err != nil {
					t.Fatal(err)
				}
				if want := []column{after[0].column()}; !reflect.DeepEqual(st.cols, want) {
					t.Fatalf("cols %+v, want %+v", st.cols, want)
				}
			}
		})
	}
}

// TestRowsServerError checks an ERR packet after some rows: Next stops,
// Rows.Err and Close return the server error, and the session stays
// usable for the next command.
func TestRowsServerError(t *testing.T) {
	for _, caps := range capsMatrix {
		t.Run(capsName(caps), func(t *testing.T) {
			c, _ := startFake(t, caps, func(s *fakeServer) {
				s.expect(queryCmd(comStmtPrepare, querySQL))
				s.reply(s.prepareOK(3, queryParams, queryCols)...)
				s.expect(execCmd(3, []byte{0, 1, 0xfe, 0}, lstr("x")))
				full := s.resultSet(queryCols, true, [][]byte{binRow(i64(1), lstr("a"), nil)}, 0)
				full[len(full)-1] = errPacket(1292, "22007", "Truncated incorrect DOUBLE value: 'x'")
				s.reply(full...)
				s.expect(execCmd(3, []byte{0, 0}, lstr("y")))
				s.reply(s.resultSet(queryCols, true, nil, 0)...)
			})
			st, err := c.Prepare(querySQL)
			if err != nil {
				t.Fatal(err)
			}
			r, err := st.Query([]any{"x"})
			if err != nil {
				t.Fatal(err)
			}
			got := readAll(t, r)
			if len(got) != 1 || got[0].id != 1 {
				t.Fatalf("rows before the error: %+v", got)
			}
			wantServerError(t, r.Err(), 1292, "22007", "Truncated incorrect DOUBLE value: 'x'")
			wantServerError(t, r.Close(), 1292, "22007", "Truncated incorrect DOUBLE value: 'x'")
			if c.Err() != nil {
				t.Fatalf("session broken: %v", c.Err())
			}
			r, err = st.Query([]any{"y"})
			if err != nil || r.Next() || r.Err() != nil {
				t.Fatalf("next query: %v %v", err, r.Err())
			}
		})
	}
}

// TestExec checks Stmt.Exec: rows affected from the OK packet, type bytes
// sent once, a server error as *mysql.MySQLError, a result set read and
// dropped (and an error inside it returned), argument count and encoding
// errors returned before anything is sent, all with the session in step.
func TestExec(t *testing.T) {
	upd := []colSpec{{name: "?", typ: typeLongLong}, {name: "?", typ: typeLongLong}}
	selCols := []colSpec{{name: "id", typ: typeLong}}
	for _, caps := range capsMatrix {
		t.Run(capsName(caps), func(t *testing.T) {
			c, _ := startFake(t, caps, func(s *fakeServer) {
				s.expect(queryCmd(comStmtPrepare, "UPDATE t SET v = ? WHERE id = ?"))
				s.reply(s.prepareOK(1, upd, nil)...)
				s.expect(execCmd(1, []byte{0, 1, 8, 0, 8, 0}, i64(5), i64(1)))
				s.reply(okPacket(0, 3, 0, statusAC))
				s.expect(execCmd(1, []byte{0, 0}, i64(6), i64(2)))
				s.reply(okPacket(0, 0, 0, statusAC))
				s.expect(execCmd(1, []byte{0, 0}, i64(7), i64(3)))
				s.reply(errPacket(1062, "23000", "Duplicate entry '3' for key 'PRIMARY'"))
				s.expect(execCmd(1, []byte{0, 0}, i64(8), i64(4)))
				s.reply(okPacket(0, 300, 12345, statusAC)) // 2-byte length-encoded, last insert id
				s.expect(queryCmd(comStmtPrepare, "SELECT id FROM t"))
				s.reply(s.prepareOK(2, nil, selCols)...)
				s.expect(execCmd(2))
				s.reply(s.resultSet(selCols, true, [][]byte{binRow(le32(1)), binRow(le32(2))}, 0)...)
				s.expect(execCmd(2))
				full := s.resultSet(selCols, !omitsMetadata(caps), [][]byte{binRow(le32(1))}, 0)
				full[len(full)-1] = errPacket(1317, "70100", "Query execution was interrupted")
				s.reply(full...)
				s.expect(queryCmd(comQuery, "COMMIT"))
				s.reply(ok(0, statusAC))
			})
			st, err := c.Prepare("UPDATE t SET v = ? WHERE id = ?")
			if err != nil {
				t.Fatal(err)
			}
			if n, err := st.Exec([]any{int64(5), int64(1)}); n != 3 || err != nil {
				t.Fatalf("Exec = %d, %v; want 3", n, err)
			}
			if n, err := st.Exec([]any{int64(6), int64(2)}); n != 0 || err != nil {
				t.Fatalf("Exec = %d, %v; want 0", n, err)
			}
			if _, err := st.Exec([]any{int64(1)}); err == nil || err.Error() != "mywire: statement expects 2 arguments, got 1" {
				t.Fatalf("argument count: %v", err)
			}
			if _, err := st.Exec([]any{int64(1), struct{}{}}); err == nil || err.Error() != "argument 2: unsupported type struct {}, a struct" {
				t.Fatalf("unsupported argument: %v", err)
			}
			_, err = st.Exec([]any{int64(7), int64(3)})
			wantServerError(t, err, 1062, "23000", "Duplicate entry '3' for key 'PRIMARY'")
			if n, err := st.Exec([]any{int64(8), int64(4)}); n != 300 || err != nil {
				t.Fatalf("Exec = %d, %v; want 300", n, err)
			}
			sel, err := c.Prepare("SELECT id FROM t")
			if err != nil {
				t.Fatal(err)
			}
			if n, err := sel.Exec(nil); n != 0 || err != nil {
				t.Fatalf("Exec of a query = %d, %v; want 0, nil", n, err)
			}
			_, err = sel.Exec(nil)
			wantServerError(t, err, 1317, "70100", "Query execution was interrupted")
			if _, err := c.SimpleExec("COMMIT"); err != nil || c.Err() != nil {
				t.Fatalf("COMMIT: %v %v", err, c.Err())
			}
		})
	}
}

// TestQueryWithoutResultSet checks Query on a statement that answers with
// an OK packet: empty rows, no error; and an error among further results
// announced by that OK returned by Query.
func TestQueryWithoutResultSet(t *testing.T) {
	c, _ := startFake(t, Caps{Plain: true}, func(s *fakeServer) {
		s.expect(queryCmd(comStmtPrepare, "DO 1"))
		s.reply(s.prepareOK(4, nil, nil)...)
		s.expect(execCmd(4))
		s.reply(ok(0, 0))
		s.expect(execCmd(4))
		s.reply(ok(0, 0))
		s.expect(execCmd(4))
		s.reply(ok(0, statusMore), errPacket(1054, "42S22", "Unknown column"))
		s.expect(execCmd(4))
		s.reply(ok(0, 0))
	})
	st, err := c.Prepare("DO 1")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		r, err := st.Query(nil)
		if err != nil || r.Next() || r.Err() != nil || r.Close() != nil || r.Columns() != 0 {
			t.Fatalf("run %d: %v %v", i, err, r.Err())
		}
	}
	_, err = st.Query(nil)
	wantServerError(t, err, 1054, "42S22", "Unknown column")
	if r, err := st.Query(nil); err != nil || r.Next() {
		t.Fatalf("after the error: %v", err)
	}
}

// TestMoreResults checks SERVER_MORE_RESULTS_EXISTS (status 0x0008): the
// result sets and OK packets that follow an OK, an end of rows or a text
// result are consumed (Exec, Query, SimpleExec), the first error among
// them is returned, and the next command is in step.
func TestMoreResults(t *testing.T) {
	cols := []colSpec{{name: "x", typ: typeLongLong}}
	for _, caps := range capsMatrix {
		t.Run(capsName(caps), func(t *testing.T) {
			c, _ := startFake(t, caps, func(s *fakeServer) {
				s.expect(queryCmd(comStmtPrepare, "CALL p()"))
				s.reply(s.prepareOK(5, nil, nil)...)
				// Exec: OK (more), result set (more), OK.
				s.expect(execCmd(5))
				payloads := [][]byte{okPacket(0, 2, 0, statusAC|statusMore)}
				payloads = append(payloads, s.resultSet(cols, true, [][]byte{binRow(i64(1))}, statusAC|statusMore)...)
				payloads = append(payloads, ok(0, statusAC))
				s.reply(payloads...)
				// Exec: result set (more), OK (more), OK.
				s.expect(execCmd(5))
				payloads = s.resultSet(cols, true, [][]byte{binRow(i64(1))}, statusAC|statusMore)
				payloads = append(payloads, ok(1, statusAC|statusMore), ok(0, statusAC))
				s.reply(payloads...)
				// Query: rows (more), OK.
				s.expect(execCmd(5))
				payloads = s.resultSet(cols, true, [][]byte{binRow(i64(10)), binRow(i64(11))}, statusAC|statusMore)
				payloads = append(payloads, ok(0, statusAC))
				s.reply(payloads...)
				// Query: OK (more), result set, no rows returned.
				s.expect(execCmd(5))
				payloads = [][]byte{ok(0, statusMore)}
				payloads = append(payloads, s.resultSet(cols, true, [][]byte{binRow(i64(1))}, 0)...)
				s.reply(payloads...)
				// Exec: OK (more), ERR, then nothing more.
				s.expect(execCmd(5))
				s.reply(ok(0, statusMore), errPacket(1048, "23000", "Column 'x' cannot be null"))
				// SimpleExec: text result (more), OK (more), ERR.
				s.expect(queryCmd(comQuery, "CALL q()"))
				payloads = s.resultSet(cols, true, [][]byte{textRow([]byte("1")), textRow(nil)}, statusMore)
				payloads = append(payloads, ok(0, statusMore), errPacket(1213, "40001", "Deadlock found"))
				s.reply(payloads...)
				// SimpleExec: OK (more), OK.
				s.expect(queryCmd(comQuery, "CALL r()"))
				s.reply(ok(4, statusMore), ok(9, 0))
				s.expect(queryCmd(comQuery, "COMMIT"))
				s.reply(ok(0, 0))
			})
			st, err := c.Prepare("CALL p()")
			if err != nil {
				t.Fatal(err)
			}
			if n, err := st.Exec(nil); n != 2 || err != nil {
				t.Fatalf("Exec, OK first: %d, %v; want 2", n, err)
			}
			if n, err := st.Exec(nil); n != 0 || err != nil {
				t.Fatalf("Exec, rows first: %d, %v; want 0", n, err)
			}
			r, err := st.Query(nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for r.Next() {
				var x int64
				if err := r.Scan(&x); err != nil {
					t.Fatal(err)
				}
				got = append(got, x)
			}
			if !reflect.DeepEqual(got, []int64{10, 11}) || r.Err() != nil {
				t.Fatalf("Query rows %v, err %v", got, r.Err())
			}
			r, err = st.Query(nil)
			if err != nil || r.Next() || r.Err() != nil {
				t.Fatalf("Query, OK first: %v %v", err, r.Err())
			}
			_, err = st.Exec(nil)
			wantServerError(t, err, 1048, "23000", "Column 'x' cannot be null")
			_, err = c.SimpleExec("CALL q()")
			wantServerError(t, err, 1213, "40001", "Deadlock found")
			if n, err := c.SimpleExec("CALL r()"); n != 4 || err != nil {
				t.Fatalf("SimpleExec, OK (more) then OK: %d, %v; want 4", n, err)
			}
			if _, err := c.SimpleExec("COMMIT"); err != nil || c.Err() != nil {
				t.Fatalf("COMMIT: %v %v", err, c.Err())
			}
		})
	}
}

// TestSimpleExec checks COM_QUERY: the command bytes (0x03 and the text,
// sequence 0), rows affected, server errors, and text result sets read
// and dropped (with an error inside returned).
func TestSimpleExec(t *testing.T) {
	cols := []colSpec{{name: "1", typ: typeLongLong}}
	for _, caps := range capsMatrix {
		t.Run(capsName(caps), func(t *testing.T) {
			c, _ := startFake(t, caps, func(s *fakeServer) {
				s.expect([]byte{0x03, 'B', 'E', 'G', 'I', 'N'})
				s.reply(ok(0, statusAC|0x0001))
				s.expect(queryCmd(comQuery, "UPDATE t SET v = 1"))
				s.reply(ok(5, 0x0001))
				s.expect(queryCmd(comQuery, "SELECT 1"))
				s.reply(s.resultSet(cols, true, [][]byte{textRow([]byte("1"))}, 0)...)
				s.expect(queryCmd(comQuery, "SELECT broken"))
				full := s.resultSet(cols, true, [][]byte{textRow([]byte("1"))}, 0)
				full[len(full)-1] = errPacket(1365, "22012", "Division by 0")
				s.reply(full...)
				s.expect(queryCmd(comQuery, "BAD"))
				s.reply(errPacket(1064, "42000", "syntax"))
				s.expect(queryCmd(comQuery, "COMMIT"))
				s.reply(ok(0, statusAC))
			})
			if n, err := c.SimpleExec("BEGIN"); n != 0 || err != nil {
				t.Fatalf("BEGIN: %d, %v", n, err)
			}
			if n, err := c.SimpleExec("UPDATE t SET v = 1"); n != 5 || err != nil {
				t.Fatalf("UPDATE: %d, %v; want 5", n, err)
			}
			if n, err := c.SimpleExec("SELECT 1"); n != 0 || err != nil {
				t.Fatalf("SELECT: %d, %v; want 0, nil", n, err)
			}
			_, err := c.SimpleExec("SELECT broken")
			wantServerError(t, err, 1365, "22012", "Division by 0")
			_, err = c.SimpleExec("BAD")
			wantServerError(t, err, 1064, "42000", "syntax")
			if _, err := c.SimpleExec("COMMIT"); err != nil || c.Err() != nil {
				t.Fatalf("COMMIT: %v %v", err, c.Err())
			}
		})
	}
}

// TestClose checks that Close sends one COM_STMT_CLOSE (0x19 and the
// statement id, sequence 0) per prepared statement, all in one write,
// that the statements are unusable afterwards, and that a Close without
// statements writes nothing.
func TestClose(t *testing.T) {
	ids := []uint32{1, 0x01020304, 0xffffffff}
	c, srv := startFake(t, Caps{DeprecateEOF: true, Plain: true}, func(s *fakeServer) {
		for i, id := range ids {
			s.expect(queryCmd(comStmtPrepare, "DO "+string(rune('1'+i))))
			s.reply(s.prepareOK(id, nil, nil)...)
		}
		want := []byte{
			5, 0, 0, 0, 0x19, 1, 0, 0, 0,
			5, 0, 0, 0, 0x19, 4, 3, 2, 1,
			5, 0, 0, 0, 0x19, 0xff, 0xff, 0xff, 0xff,
		}
		if got := s.nextWrite(); !bytes.Equal(got, want) {
			s.t.Errorf("server: close wrote % x, want % x in one write", got, want)
		}
		s.expect(queryCmd(comStmtPrepare, "DO 4"))
		s.reply(s.prepareOK(9, nil, nil)...)
		if got, want := s.nextWrite(), []byte{5, 0, 0, 0, 0x19, 9, 0, 0, 0}; !bytes.Equal(got, want) {
			s.t.Errorf("server: second close wrote % x, want % x", got, want)
		}
		// The third Close wrote nothing: the next write is the COMMIT.
		if got, want := s.nextWrite(), rawPacket(0, queryCmd(comQuery, "COMMIT")); !bytes.Equal(got, want) {
			s.t.Errorf("server: after the third close % x, want % x", got, want)
		}
		s.seq = 1
		s.reply(ok(0, 0))
	})
	var stmts []*Stmt
	for i := range ids {
		st, err := c.Prepare("DO " + string(rune('1'+i)))
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, st)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	for _, st := range stmts {
		if _, err := st.Exec(nil); err == nil || err.Error() != "mywire: statement used after its session was closed" {
			t.Fatalf("Exec after Close: %v", err)
		}
		if _, err := st.Query(nil); err == nil {
			t.Fatal("Query after Close: no error")
		}
	}
	st, err := c.Prepare("DO 4")
	if err != nil || st.id != 9 {
		t.Fatalf("Prepare after Close: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SimpleExec("COMMIT"); err != nil {
		t.Fatal(err)
	}
	srv.wait()
}

// TestScanNullBitmap checks the binary row's NULL bitmap (offset 2 bits)
// for column counts around byte boundaries: NULL columns are NULL, and the
// values of the others are read at the right positions.
func TestScanNullBitmap(t *testing.T) {
	counts := []int{1, 2, 6, 7, 8, 9, 14, 15, 16, 17}
	c, _ := startFake(t, capsOK, func(s *fakeServer) {
		for k, n := range counts {
			cols := make([]colSpec, n)
			cells := make([][]byte, n)
			for i := range cols {
				cols[i] = colSpec{name: "c", typ: typeLongLong}
				if i%3 != 1 {
					cells[i] = i64(int64(10*i + 1))
				}
			}
			s.expect(queryCmd(comStmtPrepare, "SELECT row"))
			s.reply(s.prepareOK(uint32(k), nil, cols)...)
			s.expect(execCmd(uint32(k)))
			s.reply(s.resultSet(cols, true, [][]byte{binRow(cells...)}, 0)...)
		}
	})
	for _, n := range counts {
		st, err := c.Prepare("SELECT row")
		if err != nil {
			t.Fatal(err)
		}
		r, err := st.Query(nil)
		if err != nil || !r.Next() {
			t.Fatalf("%d columns: %v %v", n, err, r.Err())
		}
		vals := make([]any, n)
		dest := make([]any, n)
		for i := range dest {
			dest[i] = &vals[i]
		}
		if err := r.Scan(dest...); err != nil {
			t.Fatalf("%d columns: %v", n, err)
		}
		for i, v := range vals {
			var want any
			if i%3 != 1 {
				want = int64(10*i + 1)
			}
			if v != want {
				t.Fatalf("%d columns: column %d = %v, want %v", n, i, v, want)
			}
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
