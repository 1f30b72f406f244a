package target

import (
	"errors"
	"strconv"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
)

// ErrorCode is the server's code for err, as a user would look it up:
// the MySQL error number ("1461"), the PostgreSQL SQLSTATE ("42501") or
// the SQLite result code ("5"); "" when err carries none (transport
// failures, client-side errors).
func ErrorCode(err error) string {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return strconv.Itoa(int(me.Number))
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return strconv.Itoa(se.Code())
	}
	return ""
}

// Hint is a one-line remedy for errors whose cause is a server setting or a
// privilege rather than the workload, or "" when there is none to give.
func Hint(err error) string {
	code := ErrorCode(err)
	switch {
	case IsStmtLimit(err):
		return "the server's max_prepared_stmt_count is exhausted: raise it (SET GLOBAL max_prepared_stmt_count = ...), run fewer terminals, or use --statement-mode text"
	case code == "53300":
		return "the server's connection limit is reached: raise max_connections (or the role's CONNECTION LIMIT), or run fewer terminals"
	case IsConnLimit(err):
		return "the server's connection limit is reached: raise max_connections (or the user's max_user_connections), or run fewer terminals"
	case proxyPoolExhausted(err):
		return "the proxy's pool of connections to its databases is exhausted (a request waited for a backend connection until the pool's timeout): raise the pool's size (ShardingSphere-Proxy: maxPoolSize of each storage unit) or run fewer terminals; if a later run's first statements wait the same way, restart the proxy (ShardingSphere-Proxy 5.1.0 has kept every backend connection after such a run)"
	}
	switch Classify(err) {
	case ClassPermission:
		return "the user lacks a privilege the workload needs: grant SELECT, INSERT, UPDATE, DELETE on the benchmark's tables (or run as their owner)"
	case ClassResourceLimit:
		return "the server ran out of a resource or hit a configured limit: see the server's message"
	}
	return ""
}

// IsStmtLimit reports a MySQL server's refusal of a prepared statement
// for its max_prepared_stmt_count (1461), which all sessions share.
func IsStmtLimit(err error) bool { return ErrorCode(err) == "1461" }

// IsConnLimit reports a server's refusal of a session for its connection
// limit: MySQL 1040 (max_connections), 1203 and 1226 (the user's
// max_user_connections), PostgreSQL 53300 (too many clients, or the slots
// left are reserved).
func IsConnLimit(err error) bool {
	switch ErrorCode(err) {
	case "1040", "1203", "1226", "53300":
		return true
	}
	return false
}

// proxyPoolExhausted reports a proxy's message that its own backend pool
// had no connection to give (HikariCP under ShardingSphere-Proxy).
func proxyPoolExhausted(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, resourceLimitTexts[0]) || strings.Contains(msg, resourceLimitTexts[1])
}
