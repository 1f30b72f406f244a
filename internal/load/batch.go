package load

import (
	"context"
	"fmt"
	"strings"
	"time"

	"benchpress/internal/target"
)

// MaxBatchRows is the largest number of rows per multi-row INSERT.
const MaxBatchRows = 1000

// maxPlaceholders keeps statements under every driver's bind-variable limit
// (MySQL and PostgreSQL 65535, SQLite 32766).
const maxPlaceholders = 30000

// BatchRows returns the rows per INSERT statement for a table of ncols
// columns: MaxBatchRows, or fewer so that rows*ncols stays under the
// placeholder limit.
func BatchRows(ncols int) int {
	n := maxPlaceholders / ncols
	if n > MaxBatchRows {
		n = MaxBatchRows
	}
	return n
}

// InsertSQL returns "INSERT INTO table (c1,...) VALUES (?,...),..." with rows
// row tuples of '?' placeholders.
func InsertSQL(table string, cols []string, rows int) string {
	var sb strings.Builder
	sb.WriteString("INSERT INTO ")
	sb.WriteString(table)
	sb.WriteString(" (")
	sb.WriteString(strings.Join(cols, ","))
	sb.WriteString(") VALUES ")
	tuple := "(" + strings.Repeat("?,", len(cols)-1) + "?)"
	sb.Grow(rows * (len(tuple) + 1))
	for i := 0; i < rows; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(tuple)
	}
	return sb.String()
}

// Insert writes every row of src into table with prepared multi-row INSERTs
// of BatchRows rows (the last, shorter batch is executed unprepared). It runs
// inside the caller's transaction and reports each batch to c. It returns the
// number of rows written.
func Insert(ctx context.Context, s *Session, table string, src RowSource, c *Counter) (int64, error) {
	cols := src.Columns()
	per := BatchRows(len(cols))
	args := make([]any, 0, per*len(cols))
	var total, bytes int64
	n := 0
	flush := func() error {
		if n == 0 {
			return nil
		}
		var err error
		if n == per {
			var st target.Stmt
			if st, err = s.Prepare(ctx, InsertSQL(table, cols, per)); err == nil {
				_, err = st.Exec(ctx, args...)
			}
		} else {
			_, err = s.Conn.Exec(ctx, InsertSQL(table, cols, n), args...)
		}
		if err != nil {
			return fmt.Errorf("insert into %s (rows %d..%d): %w", table, total+1, total+int64(n), err)
		}
		total += int64(n)
		c.Add(int64(n), bytes)
		args, n, bytes = args[:0], 0, 0
		return nil
	}
	for src.Next() {
		row := src.Row()
		for i := range row {
			args = append(args, Arg(&row[i]))
			bytes += int64(row[i].Size())
		}
		n++
		if n == per {
			if err := flush(); err != nil {
				return total, err
			}
			if err := ctx.Err(); err != nil {
				return total, err
			}
		}
	}
	return total, flush()
}

// Arg converts a field to a driver bind argument. Money and N(p,4) values are
// passed as target.Cents / target.Decimal4, which every driver sends as an
// exact decimal (no binary floating point).
func Arg(f *Field) any {
	switch f.Kind {
	case Int:
		return f.I
	case Cents:
		return target.Cents(f.I)
	case Dec4:
		return target.Decimal4(f.I)
	case Text:
		return string(f.B)
	case Time:
		return time.Unix(f.I, 0).UTC()
	}
	return nil
}
