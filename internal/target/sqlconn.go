package target

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// sqlConn is a Conn over one pinned database/sql connection; it serves the
// MySQL and SQLite drivers. Transactions are plain BEGIN/COMMIT/ROLLBACK
// statements on the pinned connection (no *sql.Tx), statements prepared in
// Prepared mode are server-side and cached per SQL text.
type sqlConn struct {
	kind     Kind
	endpoint string
	c        *sql.Conn
	prepared bool // Prepared mode: Prepare makes a server-side statement
	stmts    map[string]Stmt
	inTx     bool
	version  string
	// beginSQL returns the statement that opens a transaction.
	beginSQL func(write bool) string
	// writeGate (SQLite) admits one write transaction of the Connector's
	// sessions at a time, in the order they asked (sqliteBackend.gate);
	// gateHeld: this session holds it, only while inTx (Begin takes it,
	// Commit or Rollback gives it back). nil for other kinds.
	writeGate chan struct{}
	gateHeld  bool
}

var _ Conn = (*sqlConn)(nil)

func (s *sqlConn) Kind() Kind            { return s.kind }
func (s *sqlConn) Endpoint() string      { return s.endpoint }
func (s *sqlConn) ServerVersion() string { return s.version }

// Raw returns the pinned *sql.Conn.
func (s *sqlConn) Raw() any { return s.c }

// Prepare returns the cached statement for sql or prepares it. In Text mode
// nothing reaches the server until the statement runs.
func (s *sqlConn) Prepare(ctx context.Context, query string) (Stmt, error) {
	if st, ok := s.stmts[query]; ok {
		return st, nil
	}
	var st Stmt
	if s.prepared {
		ps, err := s.c.PrepareContext(ctx, query)
		if err != nil {
			return nil, fmt.Errorf("prepare %s: %w", snippet(query), err)
		}
		st = &sqlPreparedStmt{s: ps}
	} else {
		st = &sqlTextStmt{c: s.c, query: query}
	}
	s.stmts[query] = st
	return st, nil
}

// Exec runs a one-off statement and returns rows affected.
func (s *sqlConn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	return execResult(s.c.ExecContext(ctx, query, args...))
}

// Query runs a one-off query. *sql.Rows already satisfies Rows.
func (s *sqlConn) Query(ctx context.Context, query string, args ...any) (Rows, error) {
	r, err := s.c.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (s *sqlConn) Begin(ctx context.Context, write bool) error {
	if write && s.writeGate != nil {
		select {
		case s.writeGate <- struct{}{}:
			s.gateHeld = true
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if _, err := s.c.ExecContext(ctx, s.beginSQL(write)); err != nil {
		s.releaseGate()
		return err
	}
	s.inTx = true
	return nil
}

// releaseGate lets the next queued writer in, if this session holds the
// write gate.
func (s *sqlConn) releaseGate() {
	if s.gateHeld {
		s.gateHeld = false
		<-s.writeGate
	}
}

// Commit ends the transaction. If COMMIT fails the transaction is still
// considered open, so that the caller's Rollback really rolls back (SQLite
// keeps a transaction open after SQLITE_BUSY on COMMIT).
func (s *sqlConn) Commit(ctx context.Context) error {
	ectx, cancel := endTxContext(ctx)
	defer cancel()
	if _, err := s.c.ExecContext(ectx, "COMMIT"); err != nil {
		return commitLost(err)
	}
	s.inTx = false
	s.releaseGate()
	return nil
}

func (s *sqlConn) Rollback(ctx context.Context) error {
	if !s.inTx {
		return nil
	}
	s.inTx = false
	ectx, cancel := endTxContext(ctx)
	defer cancel()
	_, err := s.c.ExecContext(ectx, "ROLLBACK")
	s.releaseGate()
	if err != nil && strings.Contains(err.Error(), "no transaction is active") {
		return nil // SQLite already rolled back on its own
	}
	return err
}

// Close rolls back an open transaction (bounded to 5s), releases the
// prepared statements and returns the connection to the Connector's pool.
func (s *sqlConn) Close() error {
	if s.c == nil {
		return nil
	}
	if s.inTx {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = s.Rollback(ctx) // releases the write gate, if held
		cancel()
	}
	var errs []error
	for _, st := range s.stmts {
		if ps, ok := st.(*sqlPreparedStmt); ok {
			errs = append(errs, ps.s.Close())
		}
	}
	s.stmts = nil
	errs = append(errs, s.c.Close())
	s.c = nil
	if err := errors.Join(errs...); err != nil && !errors.Is(err, sql.ErrConnDone) {
		return fmt.Errorf("close session on %s: %w", s.endpoint, err)
	}
	return nil
}

// sqlPreparedStmt is a server-side prepared statement on the pinned conn.
type sqlPreparedStmt struct{ s *sql.Stmt }

func (p *sqlPreparedStmt) Exec(ctx context.Context, args ...any) (int64, error) {
	return execResult(p.s.ExecContext(ctx, args...))
}

func (p *sqlPreparedStmt) Query(ctx context.Context, args ...any) (Rows, error) {
	r, err := p.s.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (p *sqlPreparedStmt) QueryRow(ctx context.Context, dest []any, args ...any) error {
	return mapNoRows(p.s.QueryRowContext(ctx, args...).Scan(dest...))
}

// sqlTextStmt keeps the SQL and runs it as plain text; with MySQL's
// interpolateParams the driver encodes the arguments as literals.
type sqlTextStmt struct {
	c     *sql.Conn
	query string
}

func (t *sqlTextStmt) Exec(ctx context.Context, args ...any) (int64, error) {
	return execResult(t.c.ExecContext(ctx, t.query, args...))
}

func (t *sqlTextStmt) Query(ctx context.Context, args ...any) (Rows, error) {
	r, err := t.c.QueryContext(ctx, t.query, args...)
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (t *sqlTextStmt) QueryRow(ctx context.Context, dest []any, args ...any) error {
	return mapNoRows(t.c.QueryRowContext(ctx, t.query, args...).Scan(dest...))
}

func execResult(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("rows affected: %w", err)
	}
	return n, nil
}

func mapNoRows(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNoRows
	}
	return err
}

// snippet shortens SQL for error messages.
func snippet(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	if len(q) > 80 {
		q = q[:77] + "..."
	}
	return fmt.Sprintf("%q", q)
}
