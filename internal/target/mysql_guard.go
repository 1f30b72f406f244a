package target

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"benchpress/internal/target/mywire"
)

// Per-statement cancellation is expensive through database/sql and
// go-sql-driver: with a cancellable context every query hands the context to
// the connection's watcher goroutine (two channel operations, two goroutine
// wake-ups) and every *sql.Rows starts its own awaitDone goroutine. Under a
// benchmark that is most of the driver's CPU (futex and scheduler time).
//
// stmtGuard keeps the semantics (a statement in flight is interrupted when
// the caller's context ends) at the cost of one atomic store per statement:
// statements run on a context without cancellation, and one context.AfterFunc
// per session and caller context interrupts a statement in flight by setting
// a past deadline on the session's socket, which is what go-sql-driver
// itself does on cancellation (it closes the socket). An interrupted session
// is dead, as it is with the driver's own cancellation.

// The guard's state is gen<<2 | one of these; gen numbers the watched
// context, so that a late AfterFunc of a previous context cannot interrupt
// a statement run under the next one.
const (
	guardIdle  int64 = iota
	guardBusy        // a statement is in flight
	guardFired       // the statement in flight was interrupted; the socket is dead
)

type stmtGuard struct {
	nc    net.Conn // nil: no guard, statements use the caller's context
	ctx   context.Context
	bg    context.Context // context.WithoutCancel(ctx)
	stop  func() bool
	gen   int64
	state atomic.Int64
	// dead: a statement was interrupted (its socket got a past deadline);
	// sticky, so that the session is discarded at Close (never pooled with
	// that deadline) and endTxEnd leaves the deadline in place.
	dead atomic.Bool
}

func (g *stmtGuard) fire(gen int64) {
	if g.state.CompareAndSwap(gen<<2|guardBusy, gen<<2|guardFired) {
		g.dead.Store(true)
		_ = g.nc.SetDeadline(time.Unix(1, 0))
	}
}

// fired reports whether the last guarded statement was interrupted.
func (g *stmtGuard) fired() bool { return g.state.Load()&3 == guardFired }

// interrupted reports whether any statement of the session was: dead, or
// fired (fire marks the state before dead, and the statement may have
// ended in between). Its socket has a past deadline.
func (g *stmtGuard) interrupted() bool { return g.dead.Load() || g.fired() }

// enter returns the context to run a statement on.
func (g *stmtGuard) enter(ctx context.Context) (context.Context, error) {
	if g.nc == nil || ctx.Done() == nil {
		return ctx, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if ctx != g.ctx {
		g.unwatch()
		g.gen++
		gen := g.gen
		g.ctx, g.bg = ctx, context.WithoutCancel(ctx)
		g.stop = context.AfterFunc(ctx, func() { g.fire(gen) })
	}
	g.state.Store(g.gen<<2 | guardBusy)
	if err := ctx.Err(); err != nil { // cancelled before the store: AfterFunc saw idle
		g.state.CompareAndSwap(g.gen<<2|guardBusy, g.gen<<2)
		return nil, err
	}
	return g.bg, nil
}

// leave ends the statement; if it was interrupted, the result is the
// context's error, as with the driver's own cancellation.
func (g *stmtGuard) leave(err error) error {
	if g.state.CompareAndSwap(g.gen<<2|guardBusy, g.gen<<2) || !g.fired() {
		return err
	}
	if cerr := g.ctx.Err(); cerr != nil {
		return cerr
	}
	return err
}

// plain returns the context for a statement that must not be interrupted
// (COMMIT, ROLLBACK): the cancellation-free context when it is cached.
func (g *stmtGuard) plain(ctx context.Context) context.Context {
	if ctx == g.ctx {
		return g.bg
	}
	return context.WithoutCancel(ctx)
}

// endTxStart bounds COMMIT or ROLLBACK by EndTxTimeout, as endTxContext
// does, but with a deadline on the guarded socket instead of a timer
// context (which would wake the driver's watcher); the statement runs
// detached from the caller's cancellation (plain) and endTxEnd clears the
// deadline unless the guard interrupted the statement.
func (g *stmtGuard) endTxStart() { _ = g.nc.SetDeadline(time.Now().Add(EndTxTimeout)) }

func (g *stmtGuard) endTxEnd() {
	if !g.interrupted() {
		_ = g.nc.SetDeadline(time.Time{})
	}
}

func (g *stmtGuard) unwatch() {
	if g.stop != nil {
		g.stop()
		g.stop = nil
	}
	g.ctx, g.bg = nil, nil
}

// mysqlConn is the MySQL session: a sqlConn whose statements run under a
// stmtGuard instead of database/sql's per-statement context machinery. In
// Prepared mode on a plain (no TLS, no compression) socket, prepared
// statements and BEGIN/COMMIT/ROLLBACK go through w, the lean protocol
// client, and only one-off statements through database/sql.
type mysqlConn struct {
	*sqlConn
	g       stmtGuard
	stmts   map[string]*mysqlStmt
	rows    mysqlRows // reused by every Query on this session
	w       *mywire.Conn
	wrows   wireRows
	sockets *netConns
}

var _ Conn = (*mysqlConn)(nil)

func (m *mysqlConn) Prepare(ctx context.Context, query string) (Stmt, error) {
	if st, ok := m.stmts[query]; ok {
		return st, nil
	}
	if m.w != nil {
		return m.prepareWire(ctx, query)
	}
	inner, err := m.sqlConn.Prepare(ctx, query)
	if err != nil {
		return nil, err
	}
	st := &mysqlStmt{m: m}
	switch s := inner.(type) {
	case *sqlPreparedStmt:
		st.ps = s.s
	case *sqlTextStmt:
		st.query = s.query
	}
	m.stmts[query] = st
	return st, nil
}

func (m *mysqlConn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	rctx, err := m.g.enter(ctx)
	if err != nil {
		return 0, err
	}
	n, err := execResult(m.c.ExecContext(rctx, query, args...))
	return n, m.g.leave(err)
}

func (m *mysqlConn) Query(ctx context.Context, query string, args ...any) (Rows, error) {
	rctx, err := m.g.enter(ctx)
	if err != nil {
		return nil, err
	}
	r, err := m.c.QueryContext(rctx, query, args...)
	return m.wrapRows(r, err)
}

func (m *mysqlConn) wrapRows(r *sql.Rows, err error) (Rows, error) {
	if err != nil {
		return nil, m.g.leave(err)
	}
	m.rows = mysqlRows{guardedRows{r: r, g: &m.g}}
	return &m.rows, nil
}

func (m *mysqlConn) Begin(ctx context.Context, write bool) error {
	rctx, err := m.g.enter(ctx)
	if err != nil {
		return err
	}
	if err = m.g.leave(m.execPlain(rctx, m.beginSQL(write), false)); err != nil {
		return err
	}
	m.inTx = true
	return nil
}

// execPlain runs a statement without arguments or result (BEGIN, COMMIT,
// ROLLBACK) on the protocol client when the session has one, else through
// the driver on ctx, detached from its cancellation when detach is set (the
// protocol client never watches a context).
func (m *mysqlConn) execPlain(ctx context.Context, q string, detach bool) error {
	if m.w != nil {
		_, err := m.w.SimpleExec(q)
		return err
	}
	if detach {
		ctx = m.g.plain(ctx)
	}
	_, err := m.c.ExecContext(ctx, q)
	return err
}

// endTx runs COMMIT or ROLLBACK detached from the caller's cancellation,
// under the guard's end-of-transaction deadline (stmtGuard.endTxStart), or
// with endTxContext on a session without a guarded socket.
func (m *mysqlConn) endTx(ctx context.Context, q string) error {
	if m.g.nc == nil {
		ectx, cancel := endTxContext(ctx)
		defer cancel()
		_, err := m.c.ExecContext(ectx, q)
		return err
	}
	m.g.endTxStart()
	err := m.execPlain(ctx, q, true)
	m.g.endTxEnd()
	return err
}

func (m *mysqlConn) Commit(ctx context.Context) error {
	if err := m.endTx(ctx, "COMMIT"); err != nil {
		return commitLost(err)
	}
	m.inTx = false
	return nil
}

func (m *mysqlConn) Rollback(ctx context.Context) error {
	if !m.inTx {
		return nil
	}
	m.inTx = false
	return m.endTx(ctx, "ROLLBACK")
}

// Close releases the session's statements and returns the connection to the
// pool, or discards it when the protocol client lost the session or the
// guard interrupted a statement (its socket has a past deadline: pooled,
// the next session would fail on it).
func (m *mysqlConn) Close() error {
	m.g.unwatch()
	m.stmts = nil
	broken := m.g.interrupted()
	if m.w != nil && m.c != nil {
		_ = m.w.Close()
		broken = broken || m.w.Err() != nil
	}
	if broken && m.c != nil {
		m.inTx = false
		m.sockets.forget(m.c)
		_ = m.c.Raw(func(any) error { return driver.ErrBadConn })
	}
	return m.sqlConn.Close()
}

// mysqlStmt is a prepared (ws on the protocol client, or ps through
// database/sql) or text (query) statement under the guard.
type mysqlStmt struct {
	m     *mysqlConn
	ws    *mywire.Stmt
	ps    *sql.Stmt
	query string
}

func (s *mysqlStmt) Exec(ctx context.Context, args ...any) (int64, error) {
	rctx, err := s.m.g.enter(ctx)
	if err != nil {
		return 0, err
	}
	var n int64
	switch {
	case s.ws != nil:
		n, err = s.ws.Exec(args)
	case s.ps != nil:
		n, err = execResult(s.ps.ExecContext(rctx, args...))
	default:
		n, err = execResult(s.m.c.ExecContext(rctx, s.query, args...))
	}
	return n, s.m.g.leave(err)
}

func (s *mysqlStmt) Query(ctx context.Context, args ...any) (Rows, error) {
	rctx, err := s.m.g.enter(ctx)
	if err != nil {
		return nil, err
	}
	if s.ws != nil {
		return s.m.wireQuery(s.ws, args)
	}
	var r *sql.Rows
	if s.ps != nil {
		r, err = s.ps.QueryContext(rctx, args...)
	} else {
		r, err = s.m.c.QueryContext(rctx, s.query, args...)
	}
	return s.m.wrapRows(r, err)
}

func (s *mysqlStmt) QueryRow(ctx context.Context, dest []any, args ...any) error {
	rctx, err := s.m.g.enter(ctx)
	if err != nil {
		return err
	}
	if s.ws != nil {
		return s.m.g.leave(wireQueryRow(s.ws, dest, args))
	}
	var r *sql.Row
	if s.ps != nil {
		r = s.ps.QueryRowContext(rctx, args...)
	} else {
		r = s.m.c.QueryRowContext(rctx, s.query, args...)
	}
	return s.m.g.leave(mapNoRows(r.Scan(dest...)))
}

// guardedRows ends the guarded statement when the result is closed.
type guardedRows struct {
	r    Rows
	g    *stmtGuard
	done bool
}

func (r *guardedRows) Next() bool             { return r.r.Next() }
func (r *guardedRows) Scan(dest ...any) error { return r.r.Scan(dest...) }
func (r *guardedRows) Err() error             { return r.r.Err() }

func (r *guardedRows) Close() error {
	err := r.r.Close()
	if !r.done {
		r.done = true
		err = r.g.leave(err)
	}
	return err
}

// mysqlRows is a guarded database/sql result.
type mysqlRows struct{ guardedRows }

// prepareWire prepares query on the protocol client, under the guard.
func (m *mysqlConn) prepareWire(ctx context.Context, query string) (Stmt, error) {
	if _, err := m.g.enter(ctx); err != nil {
		return nil, err
	}
	ws, err := m.w.Prepare(query)
	if err = m.g.leave(err); err != nil {
		return nil, fmt.Errorf("prepare %s: %w", snippet(query), err)
	}
	st := &mysqlStmt{m: m, ws: ws}
	m.stmts[query] = st
	return st, nil
}

func (m *mysqlConn) wireQuery(ws *mywire.Stmt, args []any) (Rows, error) {
	r, err := ws.Query(args)
	if err != nil {
		return nil, m.g.leave(err)
	}
	m.wrows = wireRows{guardedRows{r: r, g: &m.g}}
	return &m.wrows, nil
}

// wireQueryRow runs ws and scans its first row; the rest are drained.
func wireQueryRow(ws *mywire.Stmt, dest []any, args []any) error {
	r, err := ws.Query(args)
	if err != nil {
		return err
	}
	if !r.Next() {
		if err := r.Err(); err != nil {
			return err
		}
		return ErrNoRows
	}
	err = r.Scan(dest...)
	if cerr := r.Close(); err == nil {
		err = cerr
	}
	return err
}

// wireRows is a guarded protocol-client result.
type wireRows struct{ guardedRows }
