package target

import "context"

// QueryRow runs a one-off query on conn and scans its first row into dest,
// as Stmt.QueryRow does for a prepared statement: ErrNoRows when the query
// returned none, else the first error of the query, the scan or closing
// the rows.
func QueryRow(ctx context.Context, conn Conn, sql string, dest []any, args ...any) error {
	rows, err := conn.Query(ctx, sql, args...)
	if err != nil {
		return err
	}
	if rows.Next() {
		err = rows.Scan(dest...)
	} else if err = rows.Err(); err == nil {
		err = ErrNoRows
	}
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}
