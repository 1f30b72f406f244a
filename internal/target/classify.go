package target

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
)

// Classify maps a driver error to its Class; nil maps to ClassNone. It works
// on errors from all three drivers, wrapped or not. Context cancellation and
// deadlines are ClassOther: they are the caller's decision, not the server's.
func Classify(err error) Class {
	if err == nil {
		return ClassNone
	}
	return classify(err)
}

// ErrConflict is returned (wrapped) by a workload that detects a concurrent
// write its transaction lost to, the way a serialization failure reports
// it: it is ClassSerialization, so the runner re-runs the transaction.
var ErrConflict = errors.New("write conflict")

func classify(err error) Class {
	if cl := (*CommitLostError)(nil); errors.As(err, &cl) && !errors.Is(err, context.Canceled) {
		// A COMMIT past its own bound (EndTxTimeout: a context deadline
		// on the driver path, the socket closed): the session is gone and
		// must be replaced, as for any other lost COMMIT.
		return ClassLostConnection
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return ClassOther
	}
	if errors.Is(err, ErrConflict) {
		return ClassSerialization
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		c := orByText(classifyMySQL(me.Number), me.Message)
		if c == ClassOther && me.SQLState[0] == '0' && me.SQLState[1] == '8' {
			// SQLSTATE class 08, connection exception, under a number of
			// no class of its own: a proxy passing its backend's lost
			// connection on ("Communications link failure", 08S01).
			return ClassLostConnection
		}
		if c == ClassOther && (me.Number == 0 || string(me.SQLState[:]) != "23000") {
			// A number of no class of its own with a SQLSTATE that has
			// one: ShardingSphere's MySQL front end passes a PostgreSQL
			// backend's deadlock on as 0 / 40P01. MySQL's own generic
			// 23000 also marks query errors (1052: a column is ambiguous),
			// so under a real number it says nothing: the constraint
			// numbers are listed in classifyMySQL.
			c = classifyPostgres(string(me.SQLState[:]))
		}
		return c
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return orByText(classifyPostgres(pe.Code), pe.Message)
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return classifySQLite(se.Code())
	}
	if isLostConnection(err) {
		return ClassLostConnection
	}
	return orByText(ClassOther, err.Error())
}

// resourceLimitTexts are messages of an exhausted pool or server limit
// (lower case) for errors whose code does not say so: a proxy reports its
// own backend pool's exhaustion under a generic number (ShardingSphere-
// Proxy: MySQL 1815, internal error), and a proxy or an older server may
// pass a limit's text on under another code.
var resourceLimitTexts = []string{
	"connection is not available, request timed out after", // HikariCP: the proxy's backend pool (ShardingSphere-Proxy)
	"connections one time, partition succeed connection",   // ShardingSphere-Proxy: "Can not get N connections one time, ..."
	"too many connections",                                 // MySQL 1040
	"max_user_connections",                                 // MySQL 1203, 1226
	"max_prepared_stmt_count",                              // MySQL 1461
	"remaining connection slots are reserved",              // PostgreSQL 53300
	"too many clients already",                             // PostgreSQL 53300
	"out of memory",                                        // MySQL 1041, PostgreSQL 53200
	"no space left on device",                              // PostgreSQL 53100, MySQL errno 28
}

// orByText returns c unless it is ClassOther and msg names an exhausted
// pool or limit (resourceLimitTexts): a code's own class always wins.
func orByText(c Class, msg string) Class {
	if c != ClassOther {
		return c
	}
	lower := strings.ToLower(msg)
	for _, s := range resourceLimitTexts {
		if strings.Contains(lower, s) {
			return ClassResourceLimit
		}
	}
	return c
}

// classifyMySQL maps MySQL/MariaDB server error numbers.
func classifyMySQL(n uint16) Class {
	switch n {
	case 1213, // ER_LOCK_DEADLOCK
		1614: // ER_XA_RBDEADLOCK: an XA branch rolled back for a deadlock
		return ClassDeadlock
	case 1205, 3572, // ER_LOCK_WAIT_TIMEOUT, ER_LOCK_NOWAIT
		1613: // ER_XA_RBTIMEOUT: an XA branch rolled back, took too long
		return ClassLockTimeout
	case 1020, // ER_CHECKREAD: MariaDB snapshot isolation write conflict
		3101: // ER_TRANSACTION_ROLLBACK_DURING_COMMIT: Group Replication's certification conflict
		return ClassSerialization
	case 9007, // TiDB: write conflict (optimistic transaction lost to a concurrent write)
		8005, // TiDB: "Write Conflict, txnStartTS is stale" (retry the transaction)
		8002, // TiDB: SELECT ... FOR UPDATE write conflict (optimistic)
		8022, // TiDB: error in transaction commit, retry the transaction
		8028: // TiDB: "Information schema is changed" (DDL during the transaction)
		return ClassSerialization
	case 1062, 1586, 1022, 1169, 1557, 1569, 1761, 1762, 1859, // duplicate key, in its older, foreign-key, auto-increment and index forms
		1451, 1452, 1216, 1217, // foreign key (1216/1217: the older codes some servers still send)
		1048, 1364, // NOT NULL, no default
		3819, 4025: // CHECK (MySQL, MariaDB)
		return ClassConstraint
	case 2006, 2013, // server gone away, lost connection during query
		1927,                   // ER_CONNECTION_KILLED (MariaDB KILL)
		1053,                   // ER_SERVER_SHUTDOWN
		1077, 1078, 1079, 1080, // normal/got signal/shutdown complete/forcing close
		4031: // ER_CLIENT_INTERACTION_TIMEOUT: the server closed an idle session
		return ClassLostConnection
	case 1142, 1143, 1044, 1045, 1227, 1370, 1698: // table/column/db access denied, need privilege
		return ClassPermission
	case 1461, // ER_MAX_PREPARED_STMT_COUNT_REACHED
		1040, 1203, 1226, // too many connections, max_user_connections, user resource exceeded
		1038, 1041, 1135, // out of sort memory, out of memory, can't create thread
		1637,       // ER_TOO_MANY_CONCURRENT_TRXS: InnoDB's undo slots
		1114, 1021: // table is full, disk full
		return ClassResourceLimit
	}
	// 1317 (query interrupted, KILL QUERY) leaves the session usable: other;
	// so do ProxySQL's 9001 (max connect timeout reaching a hostgroup) and
	// TiDB's 9001 (PD server timeout): the backend is out, the session to
	// the proxy or TiDB is not (no reconnect; the failures, the outage and
	// the success rate say it).
	return ClassOther
}

// classifyPostgres maps SQLSTATE codes.
func classifyPostgres(code string) Class {
	switch {
	case code == "40P01":
		return ClassDeadlock
	case code == "40001": // also CockroachDB's "restart transaction" retry errors
		return ClassSerialization
	case code == "55P03":
		return ClassLockTimeout
	case strings.HasPrefix(code, "23"), code == "40002": // 40002: a deferred constraint failed at COMMIT
		return ClassConstraint
	case code == "57P01", code == "57P02", code == "57P03", strings.HasPrefix(code, "08"),
		code == "57P05", code == "25P03": // idle_session_timeout, idle_in_transaction_session_timeout
		return ClassLostConnection
	case code == "42501", strings.HasPrefix(code, "28"): // insufficient privilege, invalid authorization
		return ClassPermission
	case strings.HasPrefix(code, "53"), code == "54000": // insufficient resources, program limit
		return ClassResourceLimit
	}
	return ClassOther
}

// SQLite primary result codes (extended codes carry them in the low byte).
const (
	sqliteBusy       = 5
	sqliteLocked     = 6
	sqliteConstraint = 19
)

func classifySQLite(code int) Class {
	switch code & 0xff {
	case sqliteBusy, sqliteLocked:
		return ClassSerialization
	case sqliteConstraint:
		return ClassConstraint
	}
	return ClassOther
}

// isLostConnection recognises transport failures of any driver.
func isLostConnection(err error) bool {
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, mysql.ErrInvalidConn) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNABORTED) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"broken pipe", "connection reset", "unexpected EOF", "conn closed", "bad connection", "invalid connection"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
