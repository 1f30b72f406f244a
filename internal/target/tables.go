package target

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

// TableExists reports whether table is visible to the session under its
// logical name, by running `SELECT * FROM table LIMIT 0`. It never reads
// information_schema: through a sharding proxy (ShardingSphere, HotDB,
// Vitess) information_schema lists the actual tables of one storage unit
// (warehouse_0, ...), or is not supported at all, while the logical name is
// what the workload's statements use. A missing table (MySQL 1146,
// PostgreSQL 42P01, SQLite "no such table") is false with a nil error; any
// other failure is returned. Call it outside a transaction: on PostgreSQL a
// failed statement aborts the open transaction.
func TableExists(ctx context.Context, conn Conn, table string) (bool, error) {
	rows, err := conn.Query(ctx, "SELECT * FROM "+table+" LIMIT 0")
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
	}
	switch {
	case err == nil:
		return true, nil
	case IsUndefinedTable(err):
		return false, nil
	}
	return false, fmt.Errorf("look up table %s: %w", table, err)
}

// ExistingTables probes every distinct name with TableExists and returns the
// lower-cased names of those that exist.
func ExistingTables(ctx context.Context, conn Conn, names []string) (map[string]bool, error) {
	out := make(map[string]bool, len(names))
	probed := make(map[string]bool, len(names))
	for _, n := range names {
		if probed[n] {
			continue
		}
		probed[n] = true
		ok, err := TableExists(ctx, conn, n)
		if err != nil {
			return nil, err
		}
		if ok {
			out[strings.ToLower(n)] = true
		}
	}
	return out, nil
}

// IsUndefinedTable reports whether err says that a table does not exist:
// MySQL/MariaDB 1146 (ER_NO_SUCH_TABLE, also what ShardingSphere-Proxy
// passes on), PostgreSQL SQLSTATE 42P01 (undefined_table), SQLite "no such
// table".
func IsUndefinedTable(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number == 1146
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "42P01"
	}
	return strings.Contains(err.Error(), "no such table")
}

// IsDuplicateIndex reports whether err says that an index of that name
// exists already: MySQL/MariaDB 1061 (ER_DUP_KEYNAME), PostgreSQL 42P07
// (duplicate_table, also raised for relations such as indexes), SQLite
// "already exists".
func IsDuplicateIndex(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number == 1061
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "42P07"
	}
	return strings.Contains(err.Error(), "already exists")
}
