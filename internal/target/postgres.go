package target

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// postgresBackend holds one parsed pgx config per endpoint.
type postgresBackend struct {
	t        *Target
	configs  []*pgx.ConnConfig
	prepared bool
}

func newPostgresBackend(t *Target, opts Options, mode *socketMode) (*postgresBackend, error) {
	b := &postgresBackend{t: t, prepared: opts.StatementMode == Prepared}
	iso, _ := isolationSQL(opts.Isolation)
	for _, ep := range t.Endpoints {
		cfg, err := pgx.ParseConfig(postgresConnString(t, ep))
		if err != nil {
			return nil, fmt.Errorf("%w: postgres parameters: %w", ErrBadParams, err)
		}
		// The password never goes through a connection string, so no
		// parse error can echo it.
		if t.Password != "" {
			cfg.Password = t.Password
		}
		cfg.ConnectTimeout = opts.ConnectTimeout
		cfg.DialFunc = rawDialFunc(cfg.DialFunc, mode) // see pg_socket.go
		// pgx's per-connection LRU caches (512 entries each, preallocated)
		// cost ~50 KB per session and serve only one-off statements: the hot
		// path uses named prepared statements. Small caches keep 2048
		// sessions well under 256 MB. URL parameters still override.
		if _, ok := t.Params["statement_cache_capacity"]; !ok {
			cfg.StatementCacheCapacity = 16
		}
		if _, ok := t.Params["description_cache_capacity"]; !ok {
			cfg.DescriptionCacheCapacity = 16
		}
		if opts.StatementMode == Text {
			cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
		}
		if iso != "" {
			// Applied in the startup packet: no extra round trip.
			cfg.RuntimeParams["default_transaction_isolation"] = strings.ToLower(iso)
		}
		b.configs = append(b.configs, cfg)
	}
	return b, nil
}

// postgresConnString is the URL for one endpoint, without the password.
func postgresConnString(t *Target, ep string) string {
	u := url.URL{Scheme: "postgres", Host: ep, Path: "/" + t.Database}
	if t.User != "" {
		u.User = url.User(t.User)
	}
	if len(t.Params) > 0 {
		keys := make([]string, 0, len(t.Params))
		for k := range t.Params {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		v := url.Values{}
		for _, k := range keys {
			v.Set(k, t.Params[k])
		}
		u.RawQuery = v.Encode()
	}
	return u.String()
}

func (b *postgresBackend) connect(ctx context.Context, i int) (Conn, error) {
	c, err := pgx.ConnectConfig(ctx, b.configs[i])
	if err != nil {
		return nil, err
	}
	pc := &pgConn{
		endpoint: b.t.Endpoints[i], conn: c, prepared: b.prepared,
		stmts: make(map[string]*pgStmt),
		// An isolation the user chose (--isolation, or the URL's
		// default_transaction_isolation) is every transaction's,
		// Order-Status's too: BeginSnapshot then begins plainly.
		userIso: b.configs[i].RuntimeParams["default_transaction_isolation"] != "",
	}
	// Statements run under a per-session guard instead of pgx's per-query
	// context watch (see stmtGuard): the same interruption (a past socket
	// deadline, pgx's default), registered once per session.
	pc.g.nc = c.PgConn().Conn()
	pc.rows.g = &pc.g
	return pc, nil
}

func (b *postgresBackend) connectKind(err error) ConnectErrorKind {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01", "28000":
			return ConnectAuth
		case "3D000":
			return ConnectNoDatabase
		case "53300":
			return ConnectTooMany
		case "42704", "22023": // unrecognized configuration parameter, invalid value
			return ConnectBadParams
		}
		return ConnectOther
	}
	if unreachable(err) {
		return ConnectUnreachable
	}
	return ConnectOther
}

func (b *postgresBackend) close() error { return nil }

// pgConn is a Conn over one native pgx connection.
type pgConn struct {
	endpoint string
	conn     *pgx.Conn
	prepared bool
	stmts    map[string]*pgStmt // by caller's SQL text
	seq      int
	inTx     bool
	rows     pgRows      // reused by every Query on this Conn
	lean     pgFastRows  // the same for the lean path (pg_fast.go),
	frows    guardedRows // guarded
	args     pgArgs      // the lean path's bound parameters
	g        stmtGuard
	userIso  bool // an isolation level set for the session by the user
}

var _ Conn = (*pgConn)(nil)

func (c *pgConn) Kind() Kind       { return Postgres }
func (c *pgConn) Endpoint() string { return c.endpoint }

// ServerVersion is the server_version reported at startup.
func (c *pgConn) ServerVersion() string { return c.conn.PgConn().ParameterStatus("server_version") }

// Raw returns the *pgx.Conn.
func (c *pgConn) Raw() any { return c.conn }

// Prepare rewrites '?' to $n and, in Prepared mode, prepares a named
// server-side statement (bp1, bp2, ...). The result is cached per SQL text.
func (c *pgConn) Prepare(ctx context.Context, query string) (Stmt, error) {
	if st, ok := c.stmts[query]; ok {
		return st, nil
	}
	st := &pgStmt{c: c, sql: rewritePlaceholders(query)}
	if c.prepared {
		c.seq++
		name := "bp" + itoa(c.seq)
		sd, err := c.conn.Prepare(ctx, name, st.sql)
		if err != nil {
			return nil, fmt.Errorf("prepare %s: %w", snippet(query), err)
		}
		st.sql = name // pgx runs a known statement name as that statement
		st.fast = newPGFast(sd)
	}
	c.stmts[query] = st
	return st, nil
}

func (c *pgConn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	return c.exec(ctx, rewritePlaceholders(query), args)
}

func (c *pgConn) exec(ctx context.Context, sql string, args []any) (int64, error) {
	rctx, err := c.g.enter(ctx)
	if err != nil {
		return 0, err
	}
	tag, err := c.conn.Exec(rctx, sql, args...)
	if err = c.g.leave(err); err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

func (c *pgConn) Query(ctx context.Context, query string, args ...any) (Rows, error) {
	return c.query(ctx, rewritePlaceholders(query), args)
}

// query runs sql and hands out the Conn's reused Rows wrapper. A Rows from
// this Conn must therefore not be used (not even closed) after the next
// Query on the same Conn; pgx allows only one open result per session anyway.
func (c *pgConn) query(ctx context.Context, sql string, args []any) (Rows, error) {
	rctx, err := c.g.enter(ctx)
	if err != nil {
		return nil, err
	}
	r, err := c.conn.Query(rctx, sql, args...)
	if err != nil {
		return nil, c.g.leave(err)
	}
	c.rows.r, c.rows.done = r, false
	return &c.rows, nil
}

func (c *pgConn) Begin(ctx context.Context, _ bool) error {
	rctx, err := c.g.enter(ctx)
	if err != nil {
		return err
	}
	if err := c.g.leave(c.simple(rctx, "begin")); err != nil {
		return err
	}
	c.inTx = true
	return nil
}

// BeginSnapshot starts a read-only transaction that reads one snapshot
// (REPEATABLE READ READ ONLY): PostgreSQL's default, READ COMMITTED, gives
// each statement its own, and a multi-statement read (TPC-C's
// Order-Status: the customer, their latest order, its lines) could see a
// Delivery's commit between two of them, a state that never existed
// (clause 3.4's isolation). On PostgreSQL a read-only transaction at this
// level never fails for serialization (PostgreSQL-compatible distributed
// databases may map it to SERIALIZABLE and retry it, as any transaction).
// An isolation the user set for the session is kept: a plain begin.
func (c *pgConn) BeginSnapshot(ctx context.Context) error {
	if c.userIso {
		return c.Begin(ctx, false)
	}
	rctx, err := c.g.enter(ctx)
	if err != nil {
		return err
	}
	if err := c.g.leave(c.simple(rctx, "begin isolation level repeatable read read only")); err != nil {
		return err
	}
	c.inTx = true
	return nil
}

// Commit ends the transaction; on failure the transaction counts as open so
// that a following Rollback is sent (harmless if the server already ended it).
func (c *pgConn) Commit(ctx context.Context) error {
	tag, err := c.endTx(ctx, "commit")
	if err != nil {
		return commitLost(err)
	}
	if tag.String() == "ROLLBACK" {
		// PostgreSQL answers COMMIT of a transaction a failed statement
		// aborted with the tag ROLLBACK and no error: it did not commit
		// (pgx's Tx.Commit says ErrTxCommitRollback).
		c.inTx = false
		return fmt.Errorf("commit: %w", pgx.ErrTxCommitRollback)
	}
	c.inTx = false
	return nil
}

func (c *pgConn) Rollback(ctx context.Context) error {
	if !c.inTx {
		return nil
	}
	c.inTx = false
	_, err := c.endTx(ctx, "rollback")
	return err
}

// endTx runs COMMIT or ROLLBACK detached from the caller's cancellation,
// under the guard's end-of-transaction deadline (stmtGuard.endTxStart; pgx
// would watch a timer context with a goroutine and a channel per
// statement). It returns the statement's command tag.
func (c *pgConn) endTx(ctx context.Context, q string) (pgconn.CommandTag, error) {
	c.g.endTxStart()
	tag, err := c.simpleTag(c.g.plain(ctx), q)
	c.g.endTxEnd()
	return tag, err
}

// simple runs a statement without parameters on pgconn (the simple query
// protocol, as pgx runs one) and reads its results without keeping them:
// no per-statement result objects.
func (c *pgConn) simple(ctx context.Context, q string) error {
	_, err := c.simpleTag(ctx, q)
	return err
}

// simpleTag is simple returning the last result's command tag.
func (c *pgConn) simpleTag(ctx context.Context, q string) (pgconn.CommandTag, error) {
	var tag pgconn.CommandTag
	mrr := c.conn.PgConn().Exec(ctx, q)
	for mrr.NextResult() {
		tag, _ = mrr.ResultReader().Close()
	}
	return tag, mrr.Close()
}

// Close closes the session (server-side statements die with it), bounded
// to 5s.
func (c *pgConn) Close() error {
	if c.conn == nil {
		return nil
	}
	c.g.unwatch()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := c.conn.Close(ctx)
	c.conn, c.stmts = nil, nil
	if err != nil {
		return fmt.Errorf("close session on %s: %w", c.endpoint, err)
	}
	return nil
}

// pgStmt holds the statement name (Prepared) or the rewritten SQL (Text).
// A prepared statement runs on the lean path (pg_fast.go) when its
// arguments fit it, through pgx otherwise.
type pgStmt struct {
	c    *pgConn
	sql  string
	fast *pgFast // nil in Text mode
}

// bind binds args for the lean path; false sends the statement through pgx.
func (s *pgStmt) bind(args []any) bool { return s.fast != nil && s.fast.encode(&s.c.args, args) }

// send runs the statement with the arguments bind bound.
func (s *pgStmt) send(ctx context.Context) *pgconn.ResultReader {
	return s.c.conn.PgConn().ExecStatement(ctx, s.fast.sd, s.c.args.params, nil, s.fast.resFmt)
}

func (s *pgStmt) Exec(ctx context.Context, args ...any) (int64, error) {
	if s.bind(args) {
		rctx, err := s.c.g.enter(ctx)
		if err != nil {
			return 0, err
		}
		tag, err := s.send(rctx).Close()
		if err = s.c.g.leave(err); err != nil {
			return 0, err
		}
		return tag.RowsAffected(), nil
	}
	return s.c.exec(ctx, s.sql, args)
}

func (s *pgStmt) Query(ctx context.Context, args ...any) (Rows, error) {
	if s.bind(args) {
		rctx, err := s.c.g.enter(ctx)
		if err != nil {
			return nil, err
		}
		s.c.lean = pgFastRows{rr: s.send(rctx), f: s.fast, tm: s.c.conn.TypeMap()}
		s.c.frows = guardedRows{r: &s.c.lean, g: &s.c.g}
		return &s.c.frows, nil
	}
	return s.c.query(ctx, s.sql, args)
}

// QueryRow scans the first row without allocating a Rows wrapper.
func (s *pgStmt) QueryRow(ctx context.Context, dest []any, args ...any) error {
	rctx, err := s.c.g.enter(ctx)
	if err != nil {
		return err
	}
	return s.c.g.leave(s.queryRow(rctx, dest, args))
}

func (s *pgStmt) queryRow(ctx context.Context, dest []any, args []any) error {
	if s.bind(args) {
		rr := s.send(ctx)
		var err error
		got := rr.NextRow()
		if got {
			err = s.fast.scan(s.c.conn.TypeMap(), dest, rr.Values())
		}
		if _, cerr := rr.Close(); cerr != nil {
			return cerr
		}
		if !got {
			return ErrNoRows
		}
		return err
	}
	r, err := s.c.conn.Query(ctx, s.sql, args...)
	if err != nil {
		return err
	}
	defer r.Close()
	if !r.Next() {
		if err := r.Err(); err != nil {
			return err
		}
		return ErrNoRows
	}
	if err := r.Scan(dest...); err != nil {
		return err
	}
	r.Close()
	return r.Err()
}

// pgRows adapts pgx.Rows to Rows; closing it ends the guarded statement.
type pgRows struct {
	r    pgx.Rows
	g    *stmtGuard
	done bool
}

func (p *pgRows) Next() bool             { return p.r.Next() }
func (p *pgRows) Scan(dest ...any) error { return p.r.Scan(dest...) }
func (p *pgRows) Err() error             { return p.r.Err() }

// Close closes the result and reports its error, if any.
func (p *pgRows) Close() error {
	p.r.Close()
	err := p.r.Err()
	if !p.done {
		p.done = true
		err = p.g.leave(err)
	}
	return err
}
