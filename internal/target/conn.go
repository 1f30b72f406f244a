package target

import (
	"context"
	"errors"
)

// ErrNoRows is returned by Row.Scan when the query produced no row, on every
// driver (database/sql's and pgx's own sentinels are mapped to it).
var ErrNoRows = errors.New("no rows in result set")

// StatementMode selects how statements reach the server.
type StatementMode string

const (
	// Prepared uses server-side prepared statements, prepared once per
	// connection and reused (the default).
	Prepared StatementMode = "prepared"
	// Text sends plain SQL with client-side literal encoding, for proxies and
	// poolers that mishandle prepared statements. Semantics are identical.
	Text StatementMode = "text"
)

// Conn is one database session, owned by exactly one goroutine (a terminal or
// a loader thread). It is not safe for concurrent use. SQL text given to
// Prepare and Exec uses '?' placeholders on every driver; the PostgreSQL
// implementation rewrites them to $n once, at prepare time.
type Conn interface {
	// Kind is the driver family of the session.
	Kind() Kind
	// Endpoint is the host:port (or file path) this session is connected to.
	Endpoint() string
	// Prepare readies a statement for repeated execution on this session.
	Prepare(ctx context.Context, sql string) (Stmt, error)
	// Exec runs a one-off statement (DDL, admin) and returns rows affected.
	Exec(ctx context.Context, sql string, args ...any) (int64, error)
	// Query runs a one-off query.
	Query(ctx context.Context, sql string, args ...any) (Rows, error)
	// Begin starts a transaction; on SQLite with write=true it takes the
	// write lock up front (BEGIN IMMEDIATE) so that writers queue on the busy
	// timeout instead of failing on lock upgrade.
	Begin(ctx context.Context, write bool) error
	// Commit ends the transaction. Commit and Rollback ignore the
	// cancellation of ctx (keeping its values) and are bounded by
	// EndTxTimeout instead: an interrupted COMMIT may have committed while
	// reporting failure, and a ROLLBACK that is never sent leaves locks held.
	// If Commit fails, the transaction still counts as open, so the caller's
	// Rollback is sent.
	Commit(ctx context.Context) error
	// Rollback aborts the open transaction; it is a no-op without one.
	Rollback(ctx context.Context) error
	// ServerVersion is the server's version string, as reported at connect.
	ServerVersion() string
	// Raw exposes the underlying driver handle (*sql.Conn or *pgx.Conn) for
	// bulk paths (LOAD DATA, COPY). Hot paths must not need it.
	Raw() any
	Close() error
}

// Stmt is a statement prepared on one Conn.
//
// Arguments are the values database/sql accepts; every backend also takes a
// *int64 as its value (nil as NULL), which the lean MySQL and PostgreSQL
// paths send without the heap allocation an int above 255 costs when it is
// boxed in an interface (runtime.convT64): hot loops keep their integer
// arguments in place and pass pointers.
type Stmt interface {
	Exec(ctx context.Context, args ...any) (int64, error)
	Query(ctx context.Context, args ...any) (Rows, error)
	// QueryRow runs the query and scans its first row into dest; it returns
	// ErrNoRows when there is none. Remaining rows are discarded.
	QueryRow(ctx context.Context, dest []any, args ...any) error
}

// Rows iterates a result set. Close must be called (it is idempotent). A
// Rows is valid only until the next Query on the same Conn: the PostgreSQL
// implementation reuses one Rows value per Conn to avoid an allocation per
// statement, and no driver allows two open result sets on one session.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close() error
}

// SnapshotBeginner is a Conn whose default isolation gives each statement
// its own snapshot (PostgreSQL's READ COMMITTED) and that can begin a
// read-only transaction reading one snapshot. A Conn without it (MySQL's
// REPEATABLE READ reads one snapshot from the first read on) uses Begin.
type SnapshotBeginner interface {
	BeginSnapshot(ctx context.Context) error
}
