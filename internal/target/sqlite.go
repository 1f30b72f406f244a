package target

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// sqlitePragmas are applied to every connection (the driver runs
// busy_timeout first, so that switching to WAL waits for other connections
// instead of failing). A URL parameter _pragma=name(value) replaces the
// default of the same name.
var sqlitePragmas = []string{
	"busy_timeout(30000)",
	"journal_mode(WAL)",
	"synchronous(NORMAL)",
	"foreign_keys(0)",
}

// sqliteBackend holds the one *sql.DB of the file; every Conn pins one of its
// connections. The pool is opened lazily on first connect, after the
// parent directory has been created.
type sqliteBackend struct {
	t        *Target
	path     string
	prepared bool
	db       *sql.DB

	// The first connection to a new file switches it to WAL, which takes an
	// exclusive lock: concurrent first connections could fail with
	// SQLITE_BUSY. Connects are serialized until one has succeeded; the
	// file is then in WAL mode for good and the pragma is a no-op.
	initMu sync.Mutex
	ready  atomic.Bool

	// gate queues the sessions' write transactions (BEGIN IMMEDIATE) in
	// the order they ask, one at a time: SQLite has one writer anyway, and
	// its busy handler polls with a growing sleep (up to 100 ms), so a
	// writer that has waited long loses every race to fresh ones. Measured
	// in the sweep test: one of 4 TPC-C terminals completed nothing for 2 s
	// of a 5 s window. A channel's waiting senders are served first come,
	// first served, and a waiter gives up when its context ends. Writers
	// from other processes still meet the busy timeout.
	gate chan struct{}
}

func newSQLiteBackend(t *Target, opts Options) (*sqliteBackend, error) {
	b := &sqliteBackend{t: t, path: t.Endpoints[0], prepared: opts.StatementMode == Prepared, gate: make(chan struct{}, 1)}
	v := url.Values{}
	for _, p := range sqlitePragmas {
		if !overridden(p, t.Params) {
			v.Add("_pragma", p)
		}
	}
	keys := make([]string, 0, len(t.Params))
	for k := range t.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v.Add(k, t.Params[k])
	}
	db, err := sql.Open("sqlite", b.path+"?"+v.Encode())
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", b.path, err)
	}
	db.SetMaxIdleConns(maxIdle)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	b.db = db
	return b, nil
}

// overridden reports whether the URL's own parameters set pragma p (the
// driver sorts the _pragma list, so both cannot simply be passed).
func overridden(p string, params map[string]string) bool {
	name, _, _ := strings.Cut(p, "(")
	user, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(params["_pragma"])), "(")
	if user == name {
		return true
	}
	if name == "busy_timeout" {
		_, a := params["_busy_timeout"]
		_, b := params["_timeout"]
		return a || b
	}
	return false
}

func (b *sqliteBackend) connect(ctx context.Context, _ int) (Conn, error) {
	if dir := filepath.Dir(b.path); dir != "" && dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("create directory for %s: %w", b.path, err)
		}
	}
	if !b.ready.Load() {
		b.initMu.Lock()
		defer b.initMu.Unlock()
	}
	var c *sql.Conn
	var err error
	for try := 0; ; try++ {
		c, err = b.db.Conn(ctx)
		if err == nil || try == 20 || classify(err) != ClassSerialization || ctx.Err() != nil {
			break
		}
		time.Sleep(time.Duration(10*(try+1)) * time.Millisecond) // SQLITE_BUSY: another process holds the file
	}
	if err != nil {
		return nil, err
	}
	b.ready.Store(true)
	s := &sqlConn{
		kind: SQLite, endpoint: b.path, c: c, prepared: b.prepared,
		stmts: make(map[string]Stmt), writeGate: b.gate,
		beginSQL: func(write bool) string {
			if write {
				return "BEGIN IMMEDIATE"
			}
			return "BEGIN"
		},
	}
	if err := c.QueryRowContext(ctx, "SELECT sqlite_version()").Scan(&s.version); err != nil {
		c.Close()
		return nil, fmt.Errorf("open %s: %w", b.path, err)
	}
	return s, nil
}

func (b *sqliteBackend) connectKind(err error) ConnectErrorKind {
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
		return ConnectNoDatabase
	}
	return ConnectOther
}

func (b *sqliteBackend) close() error { return b.db.Close() }
