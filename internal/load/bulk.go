package load

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"benchpress/internal/target"
)

// Method selects how rows reach the server.
type Method string

const (
	// MethodAuto streams with the server's bulk path where it is allowed
	// (LOAD DATA LOCAL INFILE on MySQL, COPY on PostgreSQL) and falls back
	// to batched INSERT when the target refuses it (local infile off, a
	// sharding proxy that does not route it); SQLite always uses prepared
	// INSERTs.
	MethodAuto Method = "auto"
	// MethodBulk requires the bulk path (an error if the server refuses it;
	// SQLite still uses INSERT, it has no bulk path).
	MethodBulk Method = "bulk"
	// MethodInsert uses batched multi-row INSERTs everywhere.
	MethodInsert Method = "insert"
)

// ParseMethod checks a --load-method value ("" means auto).
func ParseMethod(s string) (Method, error) {
	switch m := Method(strings.ToLower(s)); m {
	case "":
		return MethodAuto, nil
	case MethodAuto, MethodBulk, MethodInsert:
		return m, nil
	}
	return "", fmt.Errorf("unknown load method %q (want auto, bulk or insert)", s)
}

// Names of the write paths, as reported per table.
const (
	PathLoadData = "LOAD DATA"
	PathCopy     = "COPY"
	PathInsert   = "INSERT"
)

// bulkState is shared by the sessions of one load: the method, whether
// MySQL refused local infile (then every later unit uses INSERT), the
// warnings, and the paths used per table.
type bulkState struct {
	method   Method
	refused  atomic.Bool
	mu       sync.Mutex
	warnings []string
	paths    map[string]map[string]bool
}

func newBulkState(m Method) *bulkState {
	if m == "" {
		m = MethodAuto
	}
	return &bulkState{method: m, paths: map[string]map[string]bool{}}
}

func (b *bulkState) used(table, path string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.paths[table] == nil {
		b.paths[table] = map[string]bool{}
	}
	b.paths[table][path] = true
}

func (b *bulkState) warn(msg string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.warnings = append(b.warnings, msg)
}

// methods returns table -> path(s) used, e.g. "LOAD DATA" or "LOAD DATA+INSERT".
func (b *bulkState) methods() map[string]string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make(map[string]string, len(b.paths))
	for t, set := range b.paths {
		var ps []string
		for p := range set {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		out[t] = strings.Join(ps, "+")
	}
	return out
}

// LocalInfileWarning is the one warning printed when MySQL refuses LOAD DATA
// LOCAL INFILE and the load falls back to INSERT.
const LocalInfileWarning = "the MySQL server refused LOAD DATA LOCAL INFILE (%v); " +
	"loading the rest with batched INSERT, which is several times slower. " +
	"Enable bulk loading on the server with `SET GLOBAL local_infile=1` (or local_infile=1 in its configuration)"

// errInsertFallback marks a unit whose bulk statement was refused under
// MethodAuto: the loader rolls the unit back and runs it again, now with
// INSERT (on PostgreSQL a failed COPY aborts the transaction).
var errInsertFallback = errors.New("bulk path refused; retry the unit with INSERT")

// bulkFailed handles a failed LOAD DATA (MySQL) or COPY (PostgreSQL) into
// table after rows rows were streamed. A statement the target answered
// with an error before any row was streamed (through a proxy: at any
// point) is a refusal: under MethodAuto
// the whole load switches to INSERT with one warning naming the real cause
// (the proxy that the server version reveals, or the server, with its
// message), and errInsertFallback asks for the unit to be run again.
// Anything else (a failure mid-stream, a lost connection, MethodBulk) is
// returned with context.
func (b *bulkState) bulkFailed(conn target.Conn, table, stmt string, rows int64, err error) error {
	proxy := target.ProxyName(conn.ServerVersion())
	// Through a proxy a refusal may come after the rows were streamed (the
	// ShardingSphere 5.1 PostgreSQL frontend passes COPY to a storage node
	// under the logical name): the unit is rolled back and run again, so
	// nothing is loaded twice.
	refused := (rows == 0 || proxy != "" || copyRefused(err)) && target.IsServerError(err) && target.Classify(err) != target.ClassLostConnection
	if refused && b.method == MethodAuto {
		if b.refused.CompareAndSwap(false, true) {
			b.warn(refusalWarning(proxy, stmt, table, err))
		}
		return errInsertFallback
	}
	switch {
	case refused && proxy != "":
		return fmt.Errorf("%s into %s: %w (%s does not pass %s on to its storage nodes: use --load-method insert)",
			stmt, table, err, proxy, stmt)
	case IsLocalInfileRefused(err):
		return fmt.Errorf("%s into %s: %w (enable it with `SET GLOBAL local_infile=1` or use --load-method insert)", stmt, table, err)
	}
	return fmt.Errorf("%s into %s: %w", stmt, table, err)
}

// copyRefused reports whether err is a PostgreSQL-protocol server's refusal
// of the COPY statement itself (SQLSTATE class 0A, feature not supported,
// or 42, syntax or access): pgx streams rows before the server's answer
// arrives, so the rows sent say nothing there (rows < 0 from the COPY
// path: not known).
func copyRefused(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (strings.HasPrefix(pe.Code, "0A") || strings.HasPrefix(pe.Code, "42"))
}

// refusalWarning is the message of a fallback to INSERT: through a proxy it
// names the proxy and gives no server setting to change; on a MySQL server
// with local_infile off it gives the setting.
func refusalWarning(proxy, stmt, table string, err error) string {
	switch {
	case proxy != "":
		return fmt.Sprintf("%s refused %s into %s (%v): a sharding proxy routes rows one statement at a time, "+
			"so the load goes on with batched INSERT, which is several times slower", proxy, stmt, table, err)
	case IsLocalInfileRefused(err):
		return fmt.Sprintf(LocalInfileWarning, err)
	}
	return fmt.Sprintf("the target refused %s into %s (%v); loading the rest with batched INSERT, "+
		"which is several times slower", stmt, table, err)
}

// execLoadData runs a LOAD DATA statement on conn and returns the rows the
// server stored (its affected-row count); tests replace it to simulate a
// server that refuses local infile.
var execLoadData = func(ctx context.Context, conn *sql.Conn, q string) (int64, error) {
	res, err := conn.ExecContext(ctx, q)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// readerSeq makes LOAD DATA reader-handler names unique in the process.
var readerSeq atomic.Uint64

// Write writes every row of src into table inside the caller's transaction,
// with the session's load method: LOAD DATA LOCAL INFILE streamed from a
// registered reader on MySQL, COPY FROM STDIN (text format) on PostgreSQL, batched
// INSERT on SQLite, with --load-method insert, or after MySQL refused local
// infile under MethodAuto. It returns the rows written.
func Write(ctx context.Context, s *Session, table string, src RowSource, c *Counter) (int64, error) {
	b := s.bulk
	if b == nil {
		b = newBulkState(MethodAuto)
		s.bulk = b
	}
	kind := s.Conn.Kind()
	if b.method == MethodInsert || kind == target.SQLite || b.refused.Load() {
		b.used(table, PathInsert)
		return Insert(ctx, s, table, src, c)
	}
	switch kind {
	case target.MySQL:
		conn, ok := s.Conn.Raw().(*sql.Conn)
		if !ok {
			break
		}
		rd := NewCSVReader(src, CSVMySQL, c)
		stored, err := loadData(ctx, conn, table, src.Columns(), rd)
		if err != nil {
			return rd.Rows(), b.bulkFailed(s.Conn, table, "LOAD DATA LOCAL INFILE", rd.Rows(), err)
		}
		if stored != rd.Rows() {
			return rd.Rows(), shortLoad(ctx, conn, table, stored, rd.Rows())
		}
		b.used(table, PathLoadData)
		return rd.Rows(), nil
	case target.Postgres:
		conn, ok := s.Conn.Raw().(*pgx.Conn)
		if !ok {
			break
		}
		rd := NewCSVReader(src, CopyText, c)
		q := "COPY " + table + " (" + strings.Join(src.Columns(), ",") + ") FROM STDIN WITH (FORMAT text, DELIMITER ',')"
		if _, err := conn.PgConn().CopyFrom(ctx, rd, q); err != nil {
			// pgx may return before its reader goroutine stops (a server
			// error, a lost connection): rd is not read again. The unit
			// is rolled back and its counter reset (runUnitOnce).
			return 0, b.bulkFailed(s.Conn, table, "COPY", -1, err)
		}
		b.used(table, PathCopy)
		return rd.Rows(), nil
	}
	b.used(table, PathInsert)
	return Insert(ctx, s, table, src, c)
}

// shortLoad is the error of a LOAD DATA LOCAL INFILE that stored fewer
// rows than were sent: with LOCAL, MySQL and MariaDB skip a row with a
// duplicate key, or one they cannot take, as a warning (as if IGNORE was
// given) and the statement succeeds, where COPY and INSERT fail. The error
// quotes the server's first warnings; the caller rolls the unit back.
func shortLoad(ctx context.Context, conn *sql.Conn, table string, stored, sent int64) error {
	msg := fmt.Sprintf("LOAD DATA LOCAL INFILE into %s: the server stored %d of the %d rows sent "+
		"(under LOCAL it skips rows with a duplicate key or a value it cannot take, as warnings)", table, stored, sent)
	rows, err := conn.QueryContext(ctx, "SHOW WARNINGS LIMIT 3")
	if err != nil {
		return errors.New(msg)
	}
	defer rows.Close()
	var warns []string
	for rows.Next() {
		var level, text string
		var code int64
		if rows.Scan(&level, &code, &text) == nil {
			warns = append(warns, fmt.Sprintf("%s %d: %s", level, code, text))
		}
	}
	if len(warns) > 0 {
		msg += "; first: " + strings.Join(warns, "; ")
	}
	return errors.New(msg)
}

// loadData streams rd into table with LOAD DATA LOCAL INFILE 'Reader::name'
// and returns the rows the server stored.
func loadData(ctx context.Context, conn *sql.Conn, table string, cols []string, rd io.Reader) (int64, error) {
	name := fmt.Sprintf("benchpress-%d", readerSeq.Add(1))
	mysql.RegisterReaderHandler(name, func() io.Reader { return rd })
	defer mysql.DeregisterReaderHandler(name)
	q := "LOAD DATA LOCAL INFILE 'Reader::" + name + "' INTO TABLE " + table +
		" CHARACTER SET utf8mb4 FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' ESCAPED BY '\\\\'" +
		" LINES TERMINATED BY '\\n' (" + strings.Join(cols, ",") + ")"
	return execLoadData(ctx, conn, q)
}

// IsLocalInfileRefused reports whether err is MySQL/MariaDB refusing LOAD
// DATA LOCAL INFILE (error 1148 or 3948, or local infile disabled).
func IsLocalInfileRefused(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) && (me.Number == 1148 || me.Number == 3948) {
		return true
	}
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "local infile") || strings.Contains(s, "loading local data is disabled")
}
