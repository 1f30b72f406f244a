package target

import "context"

// TextPreparer is implemented by sessions that can run one statement as
// text (arguments encoded client-side, nothing held on the server) while
// others on the same session are server-side prepared. MySQL sessions
// implement it: the server caps prepared statements per instance
// (max_prepared_stmt_count), so a workload with many terminals prepares
// only its most frequent statements and runs the rest as text.
type TextPreparer interface {
	PrepareText(ctx context.Context, sql string) (Stmt, error)
}

// PrepareText returns a statement for sql that holds no server-side
// prepared statement when conn supports it (TextPreparer), else the
// session's ordinary Prepare.
func PrepareText(ctx context.Context, conn Conn, sql string) (Stmt, error) {
	if tp, ok := conn.(TextPreparer); ok {
		return tp.PrepareText(ctx, sql)
	}
	return conn.Prepare(ctx, sql)
}

// PrepareText returns a text statement under the session's guard; it is
// not cached (the caller keeps it), so a later Prepare of the same SQL
// still prepares it server-side.
func (m *mysqlConn) PrepareText(_ context.Context, query string) (Stmt, error) {
	return &mysqlStmt{m: m, query: query}, nil
}

// PreparedStmtLimit is a MySQL server's cap on prepared statements, shared
// by all sessions of the instance (max_prepared_stmt_count), and how many
// are held at the moment (status Prepared_stmt_count).
type PreparedStmtLimit struct {
	Max, InUse int64
}

// Free is how many more statements the server accepts now (0 at best).
func (l PreparedStmtLimit) Free() int64 { return max(0, l.Max-l.InUse) }

// ReadPreparedStmtLimit reads the limit on a MySQL session; ok is false on
// other kinds (PostgreSQL and SQLite have no such cap) or when the server
// does not expose it as a number (some proxies): there is nothing to plan
// with then, which is not an error.
func ReadPreparedStmtLimit(ctx context.Context, conn Conn) (l PreparedStmtLimit, ok bool) {
	if conn.Kind() != MySQL {
		return l, false
	}
	if err := QueryRow(ctx, conn, "SELECT @@max_prepared_stmt_count", []any{&l.Max}); err != nil || l.Max <= 0 {
		return PreparedStmtLimit{}, false
	}
	var name string
	if QueryRow(ctx, conn, "SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'", []any{&name, &l.InUse}) != nil {
		l.InUse = 0 // usage unreadable: plan with the limit alone
	}
	return l, true
}
