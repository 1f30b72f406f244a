package monitor

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"benchpress/internal/parallel"
	"benchpress/internal/results"
	"benchpress/internal/target"
)

// DBReading is one reading of a database server's own counters.
type DBReading struct {
	Kind   target.Kind
	At     time.Time
	Values map[string]float64
}

// mysqlStatus are the SHOW GLOBAL STATUS variables kept (MySQL, MariaDB,
// TiDB print what they have); mysqlGauges are levels, not counters.
var (
	mysqlStatus = []string{"Com_commit", "Com_rollback", "Com_select", "Com_insert", "Com_update", "Com_delete",
		"Com_stmt_execute", "Questions", "Queries", "Innodb_rows_read", "Innodb_rows_inserted", "Innodb_rows_updated",
		"Innodb_rows_deleted", "Handler_read_key", "Handler_read_next", "Handler_read_rnd_next", "Handler_write",
		"Handler_update", "Handler_delete", "Handler_commit", "Handler_rollback", "Innodb_data_reads", "Innodb_data_writes", "Innodb_data_read", "Innodb_data_written",
		"Innodb_buffer_pool_read_requests", "Innodb_buffer_pool_reads", "Innodb_row_lock_waits", "Innodb_deadlocks",
		"Bytes_received", "Bytes_sent", "Threads_running", "Threads_connected"}
	mysqlGauges = map[string]bool{"Threads_running": true, "Threads_connected": true}
	// pgStatColumns are pg_stat_database's columns kept for the run's database.
	pgStatColumns = []string{"xact_commit", "xact_rollback", "blks_read", "blks_hit", "tup_returned", "tup_fetched",
		"tup_inserted", "tup_updated", "tup_deleted", "deadlocks", "numbackends"}
	pgGauges = map[string]bool{"numbackends": true}
)

// ReadDBCounters reads the server's counters through an admin session:
// SHOW GLOBAL STATUS on MySQL-protocol servers (server-wide: every session
// counts), pg_stat_database for the session's database on PostgreSQL
// (its statistics are flushed by each backend at most once a second, so a
// reading lags by up to a second). SQLite has no such counters.
func ReadDBCounters(ctx context.Context, conn target.Conn) (DBReading, error) {
	r := DBReading{Kind: conn.Kind(), Values: map[string]float64{}}
	var q string
	switch conn.Kind() {
	case target.MySQL:
		q = "SHOW GLOBAL STATUS WHERE Variable_name IN ('" + strings.Join(mysqlStatus, "','") + "')"
	case target.Postgres:
		cols := make([]string, len(pgStatColumns))
		for i, c := range pgStatColumns {
			cols[i] = fmt.Sprintf("'%s', %s::text", c, c)
		}
		// pg_stat_clear_snapshot: never reuse a cached statistics snapshot.
		if _, err := conn.Exec(ctx, "SELECT pg_stat_clear_snapshot()"); err != nil {
			return r, fmt.Errorf("database counters: %w", err)
		}
		q = "SELECT u.k, u.v FROM pg_stat_database d, LATERAL (VALUES (" + strings.Join(cols, "), (") +
			")) AS u(k, v) WHERE d.datname = current_database()"
	default:
		return r, fmt.Errorf("database counters: not available on %s", conn.Kind())
	}
	rows, err := conn.Query(ctx, q)
	if err != nil {
		return r, fmt.Errorf("database counters: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return r, fmt.Errorf("database counters: %w", err)
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			r.Values[k] = f
		}
	}
	if err := rows.Err(); err != nil {
		return r, fmt.Errorf("database counters: %w", err)
	}
	r.At = time.Now()
	return r, nil
}

// CommitCheck tells DBFiguresOf how to compare commit counts.
type CommitCheck struct {
	// ToolCommits is what the tool counted as committed in the window.
	ToolCommits int64
	// Comparable is false when the workload's transactions are not one
	// server commit each (autocommit statements, read-only sysbench events);
	// Why then says so instead of the default reason (a sharding proxy).
	Comparable bool
	Why        string
	// Slack is the difference that still agrees: transactions in flight at
	// the window's edges (about one per terminal) fall on either side.
	Slack int64
	// From, when set, is a reading taken before the warm-up with nothing
	// held back (FlushPGStats): the commit counts then cover the warm-up
	// and the window, ToolCommits included, instead of the window alone.
	From *DBReading
}

// DBFiguresOf turns two readings (window start a, end b) into the saved
// figures and compares the server's commit counter (Com_commit,
// xact_commit) with the tool's count: they agree when they differ by at
// most cc.Slack plus 1 %. MySQL's counters are server-wide, so other
// sessions (another benchmark, replication) make the server's count larger.
func DBFiguresOf(a, b DBReading, cc CommitCheck) *results.DBFigures {
	f := &results.DBFigures{Kind: string(b.Kind), Counters: map[string]float64{}, Gauges: map[string]float64{}, ToolCommits: cc.ToolCommits}
	gauges := mysqlGauges
	commitKey := "Com_commit"
	if b.Kind == target.Postgres {
		gauges, commitKey = pgGauges, "xact_commit"
	}
	for k, v := range b.Values {
		if gauges[k] {
			f.Gauges[k] = v
			continue
		}
		if prev, ok := a.Values[k]; ok && v >= prev {
			f.Counters[k] = v - prev
		}
	}
	f.ServerCommits = int64(f.Counters[commitKey])
	span := "the window"
	if cc.From != nil {
		f.ServerCommits = int64(b.Values[commitKey] - cc.From.Values[commitKey])
		f.CommitsOver, span = "run", "the warm-up and the window"
	}
	diff := math.Abs(float64(f.ServerCommits - cc.ToolCommits))
	limit := float64(cc.Slack) + 0.01*float64(max(f.ServerCommits, cc.ToolCommits))
	switch {
	case !cc.Comparable:
		f.CommitCheck = "n/a"
		why := cc.Why
		if why == "" {
			why = "the workload's transactions are not one server commit each"
		}
		f.CommitNote = fmt.Sprintf("server %s +%d, tool %d transactions: %s", commitKey, f.ServerCommits, cc.ToolCommits, why)
	case diff <= limit:
		f.CommitCheck = "agree"
		f.CommitNote = fmt.Sprintf("server %s +%d, tool committed %d over %s (within %d)", commitKey, f.ServerCommits, cc.ToolCommits, span, int64(limit))
	default:
		f.CommitCheck = "disagree"
		why := "the tool counted commits the server did not see"
		if f.ServerCommits > cc.ToolCommits {
			why = "the server saw more commits than the tool made"
			if b.Kind == target.MySQL {
				why += " (MySQL's counters are server-wide: other sessions count too)"
			}
		}
		f.CommitNote = fmt.Sprintf("server %s +%d but tool committed %d over %s (differ by %.0f, more than %d): %s",
			commitKey, f.ServerCommits, cc.ToolCommits, span, diff, int64(limit), why)
	}
	return f
}

// ReadDBSize reads the data and index size of every table of the session's
// database (MySQL: information_schema.TABLES of DATABASE(); PostgreSQL:
// pg_table_size and pg_indexes_size of the tables in the current schema).
// InnoDB's figures count allocated pages and its row counts are estimates.
func ReadDBSize(ctx context.Context, conn target.Conn) (*results.DBSize, error) {
	var q string
	switch conn.Kind() {
	case target.MySQL:
		q = `SELECT table_name, CAST(COALESCE(table_rows,0) AS CHAR), CAST(COALESCE(data_length,0) AS CHAR), CAST(COALESCE(index_length,0) AS CHAR)
FROM information_schema.TABLES WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' ORDER BY table_name`
	case target.Postgres:
		q = `SELECT c.relname::text, GREATEST(c.reltuples, 0)::bigint::text, pg_table_size(c.oid)::text, pg_indexes_size(c.oid)::text
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema() ORDER BY c.relname`
	default:
		return nil, fmt.Errorf("database size: not available on %s", conn.Kind())
	}
	rows, err := conn.Query(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("database size: %w", err)
	}
	defer rows.Close()
	s := &results.DBSize{}
	for rows.Next() {
		var name string
		var v [3]string
		if err := rows.Scan(&name, &v[0], &v[1], &v[2]); err != nil {
			return nil, fmt.Errorf("database size: %w", err)
		}
		var n [3]int64
		for i := range v {
			n[i], _ = strconv.ParseInt(v[i], 10, 64)
		}
		s.Tables = append(s.Tables, results.TableSize{Name: name, Rows: n[0], DataBytes: n[1], IndexBytes: n[2]})
		s.DataBytes += n[1]
		s.IndexBytes += n[2]
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("database size: %w", err)
	}
	s.TotalBytes = s.DataBytes + s.IndexBytes
	return s, nil
}

// FlushPGStats makes the PostgreSQL backends of admin and of every session
// in conns publish the statistics they hold back: a backend flushes its
// counters to pg_stat_database at most once a second, and under lock
// contention retries after 1 s, 2 s, 4 s..., so a reading taken while they
// work lags by seconds. pg_stat_force_next_flush (PostgreSQL 15+) makes
// the backend flush, waiting for the lock, before it answers. It fails on
// servers without the function (PostgreSQL before 15, proxies and
// distributed databases speaking the protocol): callers then keep to the
// lagging reading.
func FlushPGStats(ctx context.Context, admin target.Conn, conns []target.Conn) error {
	const q = "SELECT pg_stat_force_next_flush()"
	if _, err := admin.Exec(ctx, q); err != nil {
		return fmt.Errorf("flush statistics: %w", err)
	}
	errs := parallel.Each(len(conns), 64, func(i int) error {
		_, err := conns[i].Exec(ctx, q)
		return err
	})
	if at, _ := parallel.First(errs); at >= 0 {
		return fmt.Errorf("flush statistics: %w", errs[at])
	}
	return nil
}
