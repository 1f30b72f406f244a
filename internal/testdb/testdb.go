// Package testdb gives integration tests real databases: an SQLite file in
// the test's temp dir always, and MariaDB and PostgreSQL when reachable.
//
// Each calling package gets its own server database, bp_t_<package>, so
// that `go test ./...` running packages in parallel never collide. The
// database is created when missing and is otherwise reused as is: tests
// create (and drop) their own tables.
//
// Server URLs come from BP_TEST_MYSQL (default
// mysql://bench:bench@127.0.0.1:3306/bp_test) and BP_TEST_PG (default
// postgres://bench:bench@127.0.0.1:5432/bp_test). An unreachable server
// skips (For) or is left out with a log line (All, Targets), unless
// BP_REQUIRE_DBS=1, which turns both into test failures so CI never skips
// silently. Any other problem (wrong password, no privilege) fails the test.
// BP_TEST_DB_SUFFIX, when set, is appended to the database names so that
// concurrent checkouts sharing the servers stay apart. MySQLDefaults
// reaches a second MariaDB at stock settings (BP_TEST_MYSQL_DEFAULTS,
// default mysql://bench:bench@127.0.0.1:3307/bp_test).
package testdb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"benchpress/internal/target"
)

// Environment variables read by this package.
const (
	EnvMySQL   = "BP_TEST_MYSQL"
	EnvPG      = "BP_TEST_PG"
	EnvRequire = "BP_REQUIRE_DBS"
	// EnvSuffix, when set, is appended to every database name, so that two
	// checkouts testing against the same servers at once do not collide.
	EnvSuffix = "BP_TEST_DB_SUFFIX"
)

// Default server URLs, matching scripts/db-setup.sh.
const (
	DefaultMySQL = "mysql://bench:bench@127.0.0.1:3306/bp_test"
	DefaultPG    = "postgres://bench:bench@127.0.0.1:5432/bp_test"
)

// Kinds lists every kind in the order All returns them.
var Kinds = []target.Kind{target.SQLite, target.MySQL, target.Postgres}

// Targets is All with the name derived from the calling test's package
// (the last element of its import path, without _test).
func Targets(t testing.TB) []*target.Target {
	t.Helper()
	return All(t, callerPackage())
}

// All returns one target per available kind, all using database
// bp_t_<name> (sanitized). Unreachable servers are logged and left out,
// or fail the test when BP_REQUIRE_DBS=1.
func All(t testing.TB, name string) []*target.Target {
	t.Helper()
	var out []*target.Target
	for _, k := range Kinds {
		tg, skip, err := get(t, k, name)
		switch {
		case err != nil:
			t.Fatalf("testdb: %v", err)
		case skip != "" && required():
			t.Fatalf("testdb: %s (%s=1)", skip, EnvRequire)
		case skip != "":
			t.Logf("testdb: leaving out %s: %s", k, skip)
		default:
			out = append(out, tg)
		}
	}
	return out
}

// For returns the target of one kind using database bp_t_<name>; it skips
// the test when the server is unreachable (fails when BP_REQUIRE_DBS=1).
func For(t testing.TB, kind target.Kind, name string) *target.Target {
	t.Helper()
	tg, skip, err := get(t, kind, name)
	return orSkip(t, tg, skip, err)
}

// orSkip returns tg, or fails the test on err, or skips it for an
// unreachable server (fails instead when BP_REQUIRE_DBS=1).
func orSkip(t testing.TB, tg *target.Target, skip string, err error) *target.Target {
	t.Helper()
	switch {
	case err != nil:
		t.Fatalf("testdb: %v", err)
	case skip != "" && required():
		t.Fatalf("testdb: %s (%s=1)", skip, EnvRequire)
	case skip != "":
		t.Skip(skip)
	}
	return tg
}

// DBName is the database name used for a package name: bp_t_ followed by
// the name lowercased, with every character outside [a-z0-9_] replaced by
// '_', cut to fit PostgreSQL's 63-byte identifiers.
func DBName(name string) string {
	var b strings.Builder
	b.WriteString("bp_t_")
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if len(s) > 63 {
		s = s[:63]
	}
	return s
}

// Connect opens a Connector and one session for tg, both closed when the
// test ends.
func Connect(t testing.TB, tg *target.Target, opts target.Options) (*target.Connector, target.Conn) {
	t.Helper()
	c, err := target.NewConnector(tg, opts)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := c.Connect(ctx)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	return c, conn
}

func required() bool { return os.Getenv(EnvRequire) == "1" }

// get returns the target, or a skip reason, or a hard error.
func get(t testing.TB, kind target.Kind, name string) (*target.Target, string, error) {
	db := DBName(name + os.Getenv(EnvSuffix))
	if kind == target.SQLite {
		path := filepath.Join(t.TempDir(), db+".db")
		return &target.Target{Kind: target.SQLite, Endpoints: []string{path}}, "", nil
	}
	return getFrom(t, kind, name, "", "")
}

// getFrom is get with the server URL taken from env (default def) instead
// of the kind's usual variable, when env is set.
func getFrom(t testing.TB, kind target.Kind, name, env, def string) (*target.Target, string, error) {
	db := DBName(name + os.Getenv(EnvSuffix))
	srv, err := serverAt(kind, env, def)
	if err != nil {
		return nil, "", err
	}
	if srv.skip != "" {
		return nil, srv.skip, nil
	}
	if err := srv.ensure(db); err != nil {
		return nil, "", err
	}
	tg := *srv.admin
	tg.Database = db
	tg.Endpoints = append([]string(nil), srv.admin.Endpoints...)
	if srv.admin.Params != nil {
		tg.Params = make(map[string]string, len(srv.admin.Params))
		for k, v := range srv.admin.Params {
			tg.Params[k] = v
		}
	}
	return &tg, "", nil
}

// callerPackage is the last import-path element of the first caller outside
// this package's own (non-test) files, without a _test suffix.
func callerPackage() string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		pkg := funcPackage(f.Function)
		inHelper := pkg == "benchpress/internal/testdb" && !strings.HasSuffix(f.File, "_test.go")
		if pkg != "" && !inHelper && pkg != "testing" && pkg != "runtime" {
			elem := pkg[strings.LastIndex(pkg, "/")+1:]
			return strings.TrimSuffix(elem, "_test")
		}
		if !more {
			return "unknown"
		}
	}
}

// funcPackage extracts the import path from a fully qualified function
// name such as "benchpress/internal/target_test.TestX.func1".
func funcPackage(fn string) string {
	slash := strings.LastIndex(fn, "/")
	dot := strings.Index(fn[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	return fn[:slash+1+dot]
}

// serverState is the per-process knowledge about one server.
type serverState struct {
	admin   *target.Target // URL from the environment
	skip    string         // non-empty when unreachable
	mu      sync.Mutex
	created map[string]bool
	conn    target.Conn // admin session, kept for CREATE DATABASE
}

var (
	serversMu sync.Mutex
	servers   = map[string]*serverState{} // by server URL
)

// serverAt returns the cached state for the server URL in env (default
// def; when env is empty, kind's usual variable), probing it once per
// process (a later change of the environment variable probes the new URL).
func serverAt(kind target.Kind, env, def string) (*serverState, error) {
	if env == "" {
		env, def = EnvMySQL, DefaultMySQL
		if kind == target.Postgres {
			env, def = EnvPG, DefaultPG
		}
	}
	raw := os.Getenv(env)
	if raw == "" {
		raw = def
	}
	serversMu.Lock()
	defer serversMu.Unlock()
	if s, ok := servers[raw]; ok {
		return s, nil
	}
	s, err := openServer(kind, env, raw)
	if err != nil {
		return nil, err
	}
	servers[raw] = s
	return s, nil
}

func openServer(kind target.Kind, env, raw string) (*serverState, error) {
	label, fallbackDB := "MariaDB", "information_schema"
	if kind == target.Postgres {
		label, fallbackDB = "PostgreSQL", "postgres"
	}
	admin, err := target.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", env, err)
	}
	if admin.Kind != kind {
		return nil, fmt.Errorf("%s: want a %s URL, got %s", env, kind, admin.Redacted())
	}
	s := &serverState{admin: admin, created: map[string]bool{}}
	conn, err := dial(admin)
	var ce *target.ConnectError
	if errors.As(err, &ce) && ce.Kind == target.ConnectNoDatabase {
		alt := *admin
		alt.Database = fallbackDB
		conn, err = dial(&alt)
	}
	if errors.As(err, &ce) && ce.Kind == target.ConnectUnreachable {
		s.skip = fmt.Sprintf("%s not reachable at %s (run scripts/db-setup.sh): %v", label, admin.Endpoints[0], err)
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", label, admin.Redacted(), err)
	}
	s.conn = conn
	return s, nil
}

func dial(tg *target.Target) (target.Conn, error) {
	c, err := target.NewConnector(tg, target.Options{ConnectTimeout: 5 * time.Second, StatementMode: target.Text})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// The connector is left open for the process lifetime: it holds the
	// admin session's pool.
	return c.Connect(ctx)
}

// ensure creates database db once per process.
func (s *serverState) ensure(db string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.created[db] {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if s.conn.Kind() == target.MySQL {
		if _, err := s.conn.Exec(ctx, "CREATE DATABASE IF NOT EXISTS `"+db+"`"); err != nil {
			return fmt.Errorf("create database %s: %w", db, err)
		}
	} else {
		var n int64
		rows, err := s.conn.Query(ctx, "SELECT count(*) FROM pg_database WHERE datname = ?", db)
		if err != nil {
			return fmt.Errorf("look up database %s: %w", db, err)
		}
		for rows.Next() {
			if err := rows.Scan(&n); err != nil {
				rows.Close()
				return fmt.Errorf("look up database %s: %w", db, err)
			}
		}
		if err := rows.Close(); err != nil {
			return fmt.Errorf("look up database %s: %w", db, err)
		}
		if n == 0 {
			_, err := s.conn.Exec(ctx, `CREATE DATABASE "`+db+`"`)
			if err != nil && !strings.Contains(err.Error(), "42P04") { // created concurrently
				return fmt.Errorf("create database %s: %w", db, err)
			}
		}
	}
	s.created[db] = true
	return nil
}
