package load

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"benchpress/internal/target"
)

// fakeConn records statements; it fails Exec when failOn is in the SQL.
type fakeConn struct {
	mu       *sync.Mutex
	log      *[]string
	prepared int
	inTx     bool
	failOn   string
}

func (c *fakeConn) record(s string) {
	c.mu.Lock()
	*c.log = append(*c.log, s)
	c.mu.Unlock()
}
func (c *fakeConn) Kind() target.Kind     { return target.SQLite }
func (c *fakeConn) Endpoint() string      { return "fake" }
func (c *fakeConn) ServerVersion() string { return "0" }
func (c *fakeConn) Raw() any              { return nil }
func (c *fakeConn) Close() error          { return nil }
func (c *fakeConn) Prepare(_ context.Context, sql string) (target.Stmt, error) {
	c.prepared++
	return fakeStmt{c, sql}, nil
}
func (c *fakeConn) Exec(_ context.Context, sql string, args ...any) (int64, error) {
	if c.failOn != "" && strings.Contains(sql, c.failOn) {
		return 0, errors.New("boom")
	}
	c.record(sqlHead(sql, len(args)))
	return 1, nil
}
func (c *fakeConn) Query(context.Context, string, ...any) (target.Rows, error) { return nil, nil }
func (c *fakeConn) Begin(context.Context, bool) error                          { c.inTx = true; return nil }
func (c *fakeConn) Commit(context.Context) error                               { c.inTx = false; c.record("COMMIT"); return nil }
func (c *fakeConn) Rollback(context.Context) error                             { c.inTx = false; c.record("ROLLBACK"); return nil }

type fakeStmt struct {
	c   *fakeConn
	sql string
}

func (s fakeStmt) Exec(ctx context.Context, args ...any) (int64, error) {
	return s.c.Exec(ctx, s.sql, args...)
}
func (s fakeStmt) Query(context.Context, ...any) (target.Rows, error) { return nil, nil }
func (s fakeStmt) QueryRow(context.Context, []any, ...any) error      { return nil }

func sqlHead(sql string, nargs int) string {
	head, _, _ := strings.Cut(sql, " (")
	return head + "/" + itoa(nargs)
}

func itoa(n int) string { return strconv.Itoa(n) }

type fakeDialer struct {
	mu     sync.Mutex
	log    []string
	conns  atomic.Int32
	failOn string
}

func (d *fakeDialer) Connect(context.Context) (target.Conn, error) {
	d.conns.Add(1)
	return &fakeConn{mu: &d.mu, log: &d.log, failOn: d.failOn}, nil
}

// countSource yields n rows of (i, "x"*i%5, cents).
type countSource struct {
	i, n int
	row  [3]Field
}

func (s *countSource) Columns() []string { return []string{"a", "b", "c"} }
func (s *countSource) Row() []Field      { return s.row[:] }
func (s *countSource) Next() bool {
	if s.i >= s.n {
		return false
	}
	s.i++
	s.row[0].SetInt(int64(s.i))
	s.row[1].B = append(s.row[1].Text(), strings.Repeat("x", s.i%5)...)
	s.row[2].SetCents(int64(s.i))
	return true
}

func units(table string, sizes ...int) []Unit {
	var us []Unit
	for i, n := range sizes {
		us = append(us, Unit{Key: table + ":" + itoa(i), Table: table, EstRows: int64(n),
			Run: func(ctx context.Context, s *Session, c *Counter) (int64, error) {
				return Insert(ctx, s, table, &countSource{n: n}, c)
			}})
	}
	return us
}

func TestRunBatchesAndFinish(t *testing.T) {
	d := &fakeDialer{}
	var finished atomic.Int32
	var final Progress
	st, err := Run(context.Background(), d, units("t", 2500, 10, 1000), Options{
		Threads:  2,
		Progress: func(p Progress) { final = p },
		Finish: func(ctx context.Context, s *Session, u *Unit) error {
			finished.Add(1)
			_, err := s.Conn.Exec(ctx, "INSERT INTO meta (k) VALUES (?)", u.Key)
			return err
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 3510 || st.Units != 3 || finished.Load() != 3 {
		t.Errorf("stats %+v, finished %d", st, finished.Load())
	}
	if !final.Done || final.Rows != 3510 || final.UnitsDone != 3 || len(final.Tables) != 1 {
		t.Errorf("final progress %+v", final)
	}
	got := map[string]int{}
	for _, l := range d.log {
		got[l]++
	}
	// 2500 rows: 2 full prepared batches + one of 500; 1000: one full; 10: one short.
	want := map[string]int{"INSERT INTO t/3000": 3, "INSERT INTO t/1500": 1, "INSERT INTO t/30": 1,
		"INSERT INTO meta/1": 3, "COMMIT": 3}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s executed %d times, want %d (log %v)", k, got[k], v, got)
		}
	}
}

func TestRunErrorNamesUnit(t *testing.T) {
	d := &fakeDialer{failOn: "INSERT INTO bad"}
	us := append(units("good", 100), units("bad", 50)...)
	_, err := Run(context.Background(), d, us, Options{Threads: 1})
	if err == nil || !strings.Contains(err.Error(), "bad:0") || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err = %v, want it to name unit bad:0", err)
	}
	if !strings.Contains(strings.Join(d.log, ","), "ROLLBACK") {
		t.Error("failed unit not rolled back")
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, &fakeDialer{}, units("t", 10, 10), Options{Threads: 2})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestFieldText(t *testing.T) {
	var f Field
	for _, tc := range []struct {
		set  func()
		want string
	}{
		{func() { f.SetCents(-1000) }, "-10.00"},
		{func() { f.SetCents(5) }, "0.05"},
		{func() { f.SetCents(30000000) }, "300000.00"},
		{func() { f.SetDec4(500) }, "0.0500"},
		{func() { f.SetInt(-7) }, "-7"},
		{func() { f.SetTime(0) }, "1970-01-01 00:00:00"},
		{func() { f.SetNull() }, ""},
	} {
		tc.set()
		if got := string(f.AppendText(nil)); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func TestBatchRows(t *testing.T) {
	if BatchRows(3) != MaxBatchRows || BatchRows(60) != 500 {
		t.Errorf("BatchRows(3)=%d BatchRows(60)=%d", BatchRows(3), BatchRows(60))
	}
	if got := InsertSQL("t", []string{"a", "b"}, 2); got != "INSERT INTO t (a,b) VALUES (?,?),(?,?)" {
		t.Errorf("InsertSQL = %q", got)
	}
}
