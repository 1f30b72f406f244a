package target

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"benchpress/internal/target/mywire"

	"github.com/go-sql-driver/mysql"
)

// mysqlBackend holds one *sql.DB per endpoint; every Conn pins one
// connection of the endpoint's pool.
type mysqlBackend struct {
	t         *Target
	dbs       []*sql.DB
	prepared  bool
	isolation string // SQL spelling or ""
	// guard: statements are interrupted through the socket (see stmtGuard);
	// off when the URL sets readTimeout/writeTimeout (the driver then owns
	// the socket deadlines).
	guard   bool
	sockets netConns
	// wire: prepared statements use the lean protocol client (mywire) where
	// the session allows it; Options.MySQLClient = MySQLClientDriver turns it off.
	wire bool
	loc  *time.Location
	mode *socketMode // blocking sockets or the poller (socketio.go)
}

// maxIdle keeps every pinned connection poolable when it is returned, so the
// pool never closes connections behind a terminal's back.
const maxIdle = 1 << 16

func newMySQLBackend(t *Target, opts Options, mode *socketMode) (*mysqlBackend, error) {
	iso, _ := isolationSQL(opts.Isolation)
	b := &mysqlBackend{t: t, prepared: opts.StatementMode == Prepared, isolation: iso,
		wire: opts.MySQLClient != MySQLClientDriver, mode: mode}
	for _, ep := range t.Endpoints {
		cfg, err := mysqlConfig(t, ep, opts)
		if err != nil {
			b.close()
			return nil, err
		}
		if cfg.ReadTimeout == 0 && cfg.WriteTimeout == 0 && cfg.DialFunc == nil {
			cfg.DialFunc = mode.dialRecording
			b.guard = true
		}
		b.loc = cfg.Loc
		conn, err := mysql.NewConnector(cfg)
		if err != nil && opts.StatementMode == Prepared && cfg.InterpolateParams {
			// A multi-byte collation the driver cannot escape (gbk, big5,
			// sjis...): text statements then prepare, run and close a
			// server-side statement per call instead.
			cfg.InterpolateParams = false
			conn, err = mysql.NewConnector(cfg)
		}
		if err != nil {
			b.close()
			return nil, fmt.Errorf("mysql driver config for %s: %w", ep, err)
		}
		db := sql.OpenDB(conn)
		db.SetMaxIdleConns(maxIdle)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
		b.dbs = append(b.dbs, db)
	}
	return b, nil
}

// mysqlConfig builds the driver config for one endpoint. URL parameters are
// passed through as DSN parameters (tls, charset, timeouts, and any
// server system variable). interpolateParams is always on; local
// infile stays limited to registered Reader:: handlers (allowAllFiles=false
// unless the URL asks otherwise).
func mysqlConfig(t *Target, ep string, opts Options) (*mysql.Config, error) {
	base := mysql.NewConfig()
	base.User = t.User
	base.Passwd = t.Password
	base.Net = "tcp"
	base.Addr = ep
	base.DBName = t.Database
	dsn := base.FormatDSN()
	if len(t.Params) > 0 {
		keys := make([]string, 0, len(t.Params))
		for k := range t.Params {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		sep := "?"
		if strings.Contains(dsn[strings.LastIndex(dsn, "/"):], "?") {
			sep = "&"
		}
		for _, k := range keys {
			dsn += sep + url.QueryEscape(k) + "=" + url.QueryEscape(t.Params[k])
			sep = "&"
		}
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, fmt.Errorf("%w: mysql parameters: %w", ErrBadParams, err)
	}
	// The driver sends a parameter it does not know as SET <name> = <value>
	// on every connect: a password= (PostgreSQL's URL spelling) would set
	// the account's password, or come back quoted in the server's syntax
	// error. Refused, naming the parameter, never its value.
	for k := range cfg.Params {
		if secretSessionParam(k) {
			return nil, fmt.Errorf("%w: mysql parameter %q would be sent to the server as SET %s = <its value>: give the password in the URL's user info (mysql://user:password@host/db) or with --password-env / MYSQL_PWD",
				ErrBadParams, k, k)
		}
	}
	// Arguments of text statements are always encoded client-side: in Text
	// mode for every statement, in Prepared mode for the statements a
	// workload runs as text to stay within max_prepared_stmt_count (see
	// PrepareText). Without it the driver would prepare, execute and close
	// a server-side statement per call.
	cfg.InterpolateParams = true
	if cfg.Timeout == 0 {
		cfg.Timeout = opts.ConnectTimeout
	}
	return cfg, nil
}

// secretSessionParam tells whether a parameter the driver would send as a
// session variable is named like a password (password, passwd, pwd,
// *secret*). Not sensitiveParam's "key": foreign_key_checks and
// sql_require_primary_key are session variables users set.
func secretSessionParam(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "pass") || strings.Contains(n, "pwd") || strings.Contains(n, "secret")
}

func (b *mysqlBackend) connect(ctx context.Context, i int) (Conn, error) {
	slot := &netSlot{}
	c, err := b.dbs[i].Conn(context.WithValue(ctx, netSlotKey{}, slot))
	if err != nil {
		return nil, err
	}
	s := &sqlConn{
		kind: MySQL, endpoint: b.t.Endpoints[i], c: c, prepared: b.prepared,
		stmts:    make(map[string]Stmt),
		beginSQL: func(bool) string { return "BEGIN" },
	}
	if b.isolation != "" {
		if _, err := c.ExecContext(ctx, "SET SESSION TRANSACTION ISOLATION LEVEL "+b.isolation); err != nil {
			c.Close()
			return nil, fmt.Errorf("set isolation level: %w", err)
		}
	}
	if err := c.QueryRowContext(ctx, "SELECT VERSION()").Scan(&s.version); err != nil {
		c.Close()
		return nil, fmt.Errorf("read server version: %w", err)
	}
	m := &mysqlConn{sqlConn: s, stmts: make(map[string]*mysqlStmt), sockets: &b.sockets}
	if b.guard {
		if sock := b.sockets.socketOf(c, slot); sock != nil {
			m.g.nc = sock.Conn
			if b.wire && b.prepared && sock.capsOK && sock.caps.Plain {
				m.w = mywire.New(sock.Conn, sock.caps, b.loc)
			}
		}
	}
	return m, nil
}

// dropIdle closes the pool's idle sessions (socketio.go).
func (b *mysqlBackend) dropIdle() {
	for _, db := range b.dbs {
		db.SetMaxIdleConns(0)
		db.SetMaxIdleConns(maxIdle)
	}
}

func (b *mysqlBackend) connectKind(err error) ConnectErrorKind {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		switch me.Number {
		case 1045, 1044, 1698, 1251, 1862, 1820: // access denied, plugin, expired password
			return ConnectAuth
		case 1049: // ER_BAD_DB_ERROR
			return ConnectNoDatabase
		case 1040, 1203, 1226: // too many connections, max_user_connections, user resource exceeded
			return ConnectTooMany
		case 1193, 1231, 1232: // unknown system variable, wrong value or type for it (URL ?name=value)
			return ConnectBadParams
		}
		return ConnectOther
	}
	if unreachable(err) {
		return ConnectUnreachable
	}
	return ConnectOther
}

func (b *mysqlBackend) close() error {
	var errs []error
	for _, db := range b.dbs {
		errs = append(errs, db.Close())
	}
	return errors.Join(errs...)
}
