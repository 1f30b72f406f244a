// Package mywire is a lean client for the prepared-statement commands of the
// MySQL client/server protocol (COM_STMT_PREPARE, COM_STMT_EXECUTE,
// COM_STMT_CLOSE, and COM_QUERY without a result set), used on benchmark hot
// paths instead of database/sql and go-sql-driver/mysql.
//
// Why: a benchmark terminal runs one statement at a time on a session it
// owns, so database/sql's pool, locks, per-call closures and argument
// conversion, and the driver's per-result allocations are pure overhead. On
// a two-core machine where the driver shares cores with the server, that
// overhead is measured as lost throughput (docs/benchmarks.md).
//
// Scope: go-sql-driver/mysql still dials, authenticates (every auth plugin,
// TLS) and runs everything that is not a hot path on the same socket; Conn
// takes the socket over only between those uses. The caller must not use the
// driver and Conn concurrently, and must not give Conn a TLS or compressed
// connection (the protocol bytes would not be plain). Server errors are
// returned as *mysql.MySQLError so that they classify like the driver's.
//
// References: MySQL "Client/Server Protocol" (COM_STMT_PREPARE response,
// COM_STMT_EXECUTE, Binary Protocol Resultset, OK/EOF/ERR packets) and
// MariaDB "Result set packets" (MARIADB_CLIENT_CACHE_METADATA).
package mywire
