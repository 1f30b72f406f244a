package sysbench

import (
	"context"
	"errors"
	"strings"

	"benchpress/internal/target"
)

// fakeConn records the SQL a terminal sends. Queries return one row; Exec
// returns affected, or 0 for statements matching zeroFor. Its transactions
// behave like SQLite's: BEGIN inside an open transaction fails, and a
// COMMIT that fails (commitErr) leaves the transaction open until ROLLBACK.
type fakeConn struct {
	kind      target.Kind
	log       []string
	zeroFor   string
	failOn    string // Exec/Query of SQL containing this fails with failErr
	failErr   error
	commitErr error // COMMIT fails with it, the transaction staying open
	open      bool  // a transaction is open
	rollbacks int
}

type fakeStmt struct {
	c   *fakeConn
	sql string
}

type fakeRows struct{ n int }

func (c *fakeConn) Kind() target.Kind     { return c.kind }
func (c *fakeConn) Endpoint() string      { return "fake" }
func (c *fakeConn) ServerVersion() string { return "fake" }
func (c *fakeConn) Raw() any              { return nil }
func (c *fakeConn) Close() error          { return nil }
func (c *fakeConn) Prepare(_ context.Context, sql string) (target.Stmt, error) {
	return &fakeStmt{c, sql}, nil
}
func (c *fakeConn) Exec(_ context.Context, sql string, _ ...any) (int64, error) {
	c.log = append(c.log, sql)
	return 1, nil
}
func (c *fakeConn) Query(_ context.Context, sql string, _ ...any) (target.Rows, error) {
	c.log = append(c.log, sql)
	return &fakeRows{}, nil
}
func (c *fakeConn) Begin(_ context.Context, write bool) error {
	if write {
		c.log = append(c.log, "BEGIN WRITE")
	} else {
		c.log = append(c.log, "BEGIN")
	}
	if c.open {
		return errors.New("cannot start a transaction within a transaction")
	}
	c.open = true
	return nil
}
func (c *fakeConn) Commit(context.Context) error {
	c.log = append(c.log, "COMMIT")
	if c.commitErr != nil {
		return c.commitErr
	}
	c.open = false
	return nil
}
func (c *fakeConn) Rollback(context.Context) error {
	c.rollbacks++
	c.log = append(c.log, "ROLLBACK")
	c.open = false
	return nil
}

func (s *fakeStmt) Exec(_ context.Context, _ ...any) (int64, error) {
	s.c.log = append(s.c.log, s.sql)
	if s.c.failOn != "" && strings.Contains(s.sql, s.c.failOn) {
		return 0, s.c.failErr
	}
	if s.c.zeroFor != "" && strings.HasPrefix(s.sql, s.c.zeroFor) {
		return 0, nil
	}
	return 1, nil
}
func (s *fakeStmt) Query(_ context.Context, _ ...any) (target.Rows, error) {
	s.c.log = append(s.c.log, s.sql)
	if s.c.failOn != "" && strings.Contains(s.sql, s.c.failOn) {
		return nil, s.c.failErr
	}
	return &fakeRows{}, nil
}
func (s *fakeStmt) QueryRow(_ context.Context, _ []any, _ ...any) error {
	s.c.log = append(s.c.log, s.sql)
	return nil
}

func (r *fakeRows) Next() bool        { r.n++; return r.n == 1 }
func (r *fakeRows) Scan(...any) error { return nil }
func (r *fakeRows) Err() error        { return nil }
func (r *fakeRows) Close() error      { return nil }
