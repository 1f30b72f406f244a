package ycsb

import (
	"context"
	"strings"

	"benchpress/internal/target"
)

// fakeConn records the SQL it is sent. Queries return rows rows; Exec
// returns affected.
type fakeConn struct {
	log      []string
	rows     int
	affected int64
	failOn   string // statements starting with this fail with failErr
	failErr  error
}

type fakeStmt struct {
	c   *fakeConn
	sql string
}

type fakeRows struct{ left int }

func (c *fakeConn) Kind() target.Kind     { return target.SQLite }
func (c *fakeConn) Endpoint() string      { return "fake" }
func (c *fakeConn) ServerVersion() string { return "fake" }
func (c *fakeConn) Raw() any              { return nil }
func (c *fakeConn) Close() error          { return nil }
func (c *fakeConn) Prepare(_ context.Context, sql string) (target.Stmt, error) {
	return &fakeStmt{c, sql}, nil
}
func (c *fakeConn) Exec(_ context.Context, sql string, _ ...any) (int64, error) {
	c.log = append(c.log, sql)
	if c.failOn != "" && strings.HasPrefix(sql, c.failOn) {
		return 0, c.failErr
	}
	return c.affected, nil
}
func (c *fakeConn) Query(_ context.Context, sql string, _ ...any) (target.Rows, error) {
	c.log = append(c.log, sql)
	if c.failOn != "" && strings.HasPrefix(sql, c.failOn) {
		return nil, c.failErr
	}
	return &fakeRows{c.rows}, nil
}
func (c *fakeConn) Begin(context.Context, bool) error { return nil }
func (c *fakeConn) Commit(context.Context) error      { return nil }
func (c *fakeConn) Rollback(context.Context) error    { return nil }

func (s *fakeStmt) Exec(ctx context.Context, args ...any) (int64, error) {
	return s.c.Exec(ctx, s.sql, args...)
}
func (s *fakeStmt) Query(ctx context.Context, args ...any) (target.Rows, error) {
	return s.c.Query(ctx, s.sql, args...)
}
func (s *fakeStmt) QueryRow(context.Context, []any, ...any) error { return nil }

func (r *fakeRows) Next() bool        { r.left--; return r.left >= 0 }
func (r *fakeRows) Scan(...any) error { return nil }
func (r *fakeRows) Err() error        { return nil }
func (r *fakeRows) Close() error      { return nil }
