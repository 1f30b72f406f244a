package sysbench

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

// verb is the classification key of one logged statement.
func verb(sql string) string {
	f := strings.Fields(sql)
	switch {
	case strings.HasPrefix(sql, "SELECT DISTINCT"):
		return "DISTINCT"
	case strings.HasPrefix(sql, "SELECT SUM"):
		return "SUM"
	case strings.HasPrefix(sql, "SELECT") && strings.Contains(sql, "ORDER BY"):
		return "ORDER"
	case strings.HasPrefix(sql, "SELECT") && strings.Contains(sql, "BETWEEN"):
		return "SIMPLE"
	case strings.HasPrefix(sql, "SELECT"):
		return "POINT"
	case strings.HasPrefix(sql, "UPDATE") && strings.Contains(sql, "k=k+1"):
		return "UPDK"
	case strings.HasPrefix(sql, "UPDATE"):
		return "UPDC"
	}
	return f[0]
}

func TestEventStatements(t *testing.T) {
	rw := "BEGIN POINT×10 SIMPLE SUM ORDER DISTINCT UPDK UPDC DELETE INSERT COMMIT"
	cases := []struct {
		test    string
		mod     func(*Options)
		seq     string // expected statement sequence (×n repeats)
		r, w, o int64
	}{
		{PointSelect, nil, "POINT", 1, 0, 0},
		{ReadOnly, nil, "BEGIN POINT×10 SIMPLE SUM ORDER DISTINCT COMMIT", 14, 0, 2},
		{ReadOnly, func(o *Options) { o.RangeSelects = false }, "BEGIN POINT×10 COMMIT", 10, 0, 2},
		{ReadWrite, nil, rw, 14, 4, 2},
		{ReadWrite, func(o *Options) { o.SkipTrx = true }, "POINT×10 SIMPLE SUM ORDER DISTINCT UPDK UPDC DELETE INSERT", 14, 4, 0},
		{WriteOnly, nil, "BEGIN UPDK UPDC DELETE INSERT COMMIT", 0, 4, 2},
		{UpdateIndex, nil, "UPDK", 0, 1, 0},
		{UpdateIndex, func(o *Options) { o.IndexUpdates = 3 }, "UPDK×3", 0, 3, 0},
		{UpdateNonIndex, nil, "UPDC", 0, 1, 0},
		{Delete, nil, "DELETE", 0, 1, 0},
		{Insert, nil, "INSERT", 0, 1, 0},
		{Insert, func(o *Options) { o.AutoInc = false }, "INSERT", 0, 1, 0},
		{ReadWriteSplit, nil, "POINT×10 SIMPLE SUM ORDER BEGIN DISTINCT UPDK UPDC DELETE INSERT COMMIT", 14, 4, 2},
		{ReadWriteSplit, func(o *Options) { o.SkipTrx = true }, "POINT×10 SIMPLE SUM ORDER DISTINCT UPDK UPDC DELETE INSERT", 14, 4, 0},
	}
	for _, c := range cases {
		name := c.test
		if c.mod != nil {
			name += "/modified"
		}
		t.Run(name, func(t *testing.T) {
			o := DefaultOptions()
			o.Tables, o.TableSize, o.Seed = 3, 1000, 1
			if c.mod != nil {
				c.mod(&o)
			}
			w, err := New(c.test, o)
			if err != nil {
				t.Fatal(err)
			}
			conn := &fakeConn{kind: target.MySQL}
			term, err := w.NewTerminal(context.Background(), 0, 1, conn)
			if err != nil {
				t.Fatal(err)
			}
			conn.log = nil
			if out, err := term.Exec(context.Background(), term.Next()); err != nil || out != metrics.OK {
				t.Fatalf("Exec = %v, %v", out, err)
			}
			var got []string
			for _, s := range conn.log {
				got = append(got, verb(s))
			}
			if want := expand(c.seq); strings.Join(got, " ") != want {
				t.Errorf("statements:\n got %s\nwant %s", strings.Join(got, " "), want)
			}
			if n := int64(len(conn.log)); n != c.r+c.w+c.o || int(n) != w.StatementsPerEvent() {
				t.Errorf("queries per event = %d, StatementsPerEvent = %d, want %d", n, w.StatementsPerEvent(), c.r+c.w+c.o)
			}
			ex := term.Extras()
			if ex[exReads] != c.r || ex[exWrites] != c.w || ex[exOthers] != c.o {
				t.Errorf("r/w/o = %d/%d/%d, want %d/%d/%d", ex[exReads], ex[exWrites], ex[exOthers], c.r, c.w, c.o)
			}
		})
	}
}

// expand turns "POINT×3" into "POINT POINT POINT".
func expand(seq string) string {
	var out []string
	for _, f := range strings.Fields(seq) {
		name, n := f, 1
		if i := strings.Index(f, "×"); i >= 0 {
			name = f[:i]
			n = 0
			for _, d := range f[i+len("×"):] {
				n = n*10 + int(d-'0')
			}
		}
		for j := 0; j < n; j++ {
			out = append(out, name)
		}
	}
	return strings.Join(out, " ")
}

// A write that matches no row is "other", not "write" (§2.8).
func TestZeroRowWriteIsOther(t *testing.T) {
	w, err := New(Delete, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	conn := &fakeConn{kind: target.SQLite, zeroFor: "DELETE"}
	term, _ := w.NewTerminal(context.Background(), 0, 1, conn)
	term.Exec(context.Background(), 0)
	if ex := term.Extras(); ex[exWrites] != 0 || ex[exOthers] != 1 {
		t.Errorf("w/o = %d/%d, want 0/1", ex[exWrites], ex[exOthers])
	}
}

// A failing statement inside the transaction rolls back and returns the error.
func TestExecRollsBackOnError(t *testing.T) {
	w, _ := New(ReadWrite, DefaultOptions())
	boom := errors.New("deadlock")
	conn := &fakeConn{kind: target.MySQL, failOn: "SET k=k+1", failErr: boom}
	term, _ := w.NewTerminal(context.Background(), 0, 1, conn)
	out, err := term.Exec(context.Background(), 0)
	if !errors.Is(err, boom) || out != metrics.Failed {
		t.Fatalf("Exec = %v, %v; want Failed, %v", out, err, boom)
	}
	if conn.rollbacks != 1 || conn.log[len(conn.log)-1] != "ROLLBACK" {
		t.Errorf("rollbacks = %d, log tail %v", conn.rollbacks, conn.log[len(conn.log)-1])
	}
}

// A failed COMMIT is followed by a ROLLBACK: SQLite keeps the transaction
// (and its write lock) open after SQLITE_BUSY on COMMIT, so without it the
// session's next BEGIN fails and every other writer stalls. A COMMIT that
// succeeds is not rolled back.
func TestExecRollsBackFailedCommit(t *testing.T) {
	busy := errors.New("database is locked (5) (SQLITE_BUSY)")
	for _, tc := range []struct {
		test      string
		commitErr error
		rollbacks int
	}{
		{ReadWrite, busy, 1},
		{ReadOnly, busy, 1},
		{WriteOnly, busy, 1},
		{ReadWriteSplit, busy, 1},
		{ReadWrite, nil, 0},
		{WriteOnly, nil, 0},
	} {
		t.Run(fmt.Sprintf("%s/commit error %v", tc.test, tc.commitErr), func(t *testing.T) {
			w, err := New(tc.test, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			conn := &fakeConn{kind: target.SQLite, commitErr: tc.commitErr}
			term, _ := w.NewTerminal(context.Background(), 0, 1, conn)
			out, err := term.Exec(context.Background(), 0)
			if tc.commitErr == nil {
				if err != nil || out != metrics.OK {
					t.Fatalf("Exec = %v, %v; want OK", out, err)
				}
			} else if !errors.Is(err, tc.commitErr) || out != metrics.Failed || !strings.HasPrefix(err.Error(), "commit: ") {
				t.Fatalf("Exec = %v, %v; want Failed, commit: %v", out, err, tc.commitErr)
			}
			if conn.rollbacks != tc.rollbacks {
				t.Fatalf("rollbacks = %d, want %d (log tail %v)", conn.rollbacks, tc.rollbacks, conn.log[len(conn.log)-2:])
			}
			if tc.rollbacks > 0 && strings.Join(conn.log[len(conn.log)-2:], " ") != "COMMIT ROLLBACK" {
				t.Errorf("log tail %v, want COMMIT ROLLBACK", conn.log[len(conn.log)-2:])
			}
			// The session is usable again: the next event's BEGIN succeeds.
			conn.commitErr = nil
			if out, err := term.Exec(context.Background(), 0); err != nil || out != metrics.OK {
				t.Errorf("next Exec = %v, %v; want OK", out, err)
			}
		})
	}
}

func TestNewValidatesAllAtOnce(t *testing.T) {
	o := DefaultOptions()
	o.Tables, o.TableSize, o.RandType = 0, -1, "bogus"
	_, err := New("oltp_nope", o)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"tables", "table_size", "bogus", "oltp_nope"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if len(Tests()) != 9 {
		t.Errorf("Tests() = %v", Tests())
	}
}

func TestTablePerGroup(t *testing.T) {
	// All point selects of one event hit one table (§2.6).
	o := DefaultOptions()
	o.Tables, o.Seed = 16, 7
	w, _ := New(ReadOnly, o)
	conn := &fakeConn{kind: target.Postgres}
	term, _ := w.NewTerminal(context.Background(), 0, 1, conn)
	for e := 0; e < 20; e++ {
		conn.log = nil
		term.Exec(context.Background(), 0)
		tables := map[string]bool{}
		for _, s := range conn.log {
			if verb(s) == "POINT" {
				tables[strings.Fields(s)[3]] = true
			}
		}
		if len(tables) != 1 {
			t.Fatalf("point selects of one event hit %v", tables)
		}
	}
}

// A failed statement's error names its step (error_samples show where an
// event failed) and keeps the server's error for classification.
func TestErrorNamesTheStep(t *testing.T) {
	boom := &mysql.MySQLError{Number: 1205, Message: "Lock wait timeout exceeded; try restarting transaction"}
	for _, tc := range []struct {
		test, failOn, want string
	}{
		{PointSelect, "SELECT c FROM", "point select: Error 1205"},
		{ReadWrite, "BETWEEN", "simple range: Error 1205"},
		{ReadWrite, "SET k=k+1", "index update: Error 1205"},
		{ReadWrite, "SET c=?", "non-index update: Error 1205"},
		{ReadWrite, "DELETE", "delete/insert: delete: Error 1205"},
		{ReadWrite, "INSERT", "delete/insert: insert: Error 1205"},
		{Delete, "DELETE", "delete: Error 1205"},
		{Insert, "INSERT", "insert: Error 1205"},
	} {
		t.Run(tc.test+"/"+tc.failOn, func(t *testing.T) {
			w, err := New(tc.test, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			conn := &fakeConn{kind: target.MySQL, failOn: tc.failOn, failErr: boom}
			term, _ := w.NewTerminal(context.Background(), 0, 1, conn)
			_, err = term.Exec(context.Background(), 0)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %q, want it to start with %q", err, tc.want)
			}
			if target.Classify(err) != target.ClassLockTimeout || target.ErrorCode(err) != "1205" {
				t.Errorf("class %v code %q, want lock_timeout 1205", target.Classify(err), target.ErrorCode(err))
			}
		})
	}
}
