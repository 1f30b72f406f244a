package target

import (
	"context"
	"encoding"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"time"
	"unsafe"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// The lean path for PostgreSQL prepared statements, what mywire is for
// MySQL. pgx's Conn.Query costs ~6 heap objects per statement (a Rows, its
// scan plans, the argument encoder's state) and plans every Scan again; a
// benchmark's statements are few, prepared once, and bind a handful of
// plain values. pgFast runs a prepared statement on the session's
// pgconn.PgConn directly (ExecStatement: Bind/Execute/Sync, no Describe),
// binds the arguments as text into buffers owned by the statement and
// decodes the common (column type, destination) pairs itself:
//
//   - parameters: nil, integers, floats (finite), bool and string for any
//     parameter type but bytea; time.Time for timestamp, timestamptz and
//     date; encoding.TextAppender values (Cents, Decimal4) for numeric,
//     float and text parameters. The server parses the text exactly as it
//     parses sysbench's (libpq's) text parameters.
//   - results: fixed-width types (integers, floats, bool, timestamps, date)
//     come in binary, the rest (numeric, text, varchar) as text; integers
//     into *int64/*int/*int32, float8/float4 into *float64, text into
//     *string, and text columns into encoding.TextUnmarshaler (Cents,
//     Decimal4 read numeric text exactly, discard skips).
//
// Anything else takes pgx's own way: a statement whose arguments do not fit
// runs through Conn.Query as before, and a value whose destination does not
// fit (NULL included) is scanned by pgx's type map, so the results and
// errors are pgx's. Server errors are the same *pgconn.PgError.
type pgFast struct {
	sd     *pgconn.StatementDescription
	resFmt []int16  // per result column
	params [][]byte // views into buf, reused
	ends   []int    // where each parameter ends in buf; -1: NULL
	buf    []byte
}

// newPGFast returns the lean path for a prepared statement's description.
func newPGFast(sd *pgconn.StatementDescription) *pgFast {
	n := len(sd.ParamOIDs)
	f := &pgFast{sd: sd, params: make([][]byte, n), ends: make([]int, n)}
	if len(sd.Fields) > 0 {
		f.resFmt = make([]int16, len(sd.Fields))
		for i, fd := range sd.Fields {
			if binaryResult(fd.DataTypeOID) {
				f.resFmt[i] = pgtype.BinaryFormatCode
			}
		}
	}
	return f
}

// binaryResult reports the result types read in binary: fixed width, no
// parsing, and exactly what pgx reads for them.
func binaryResult(oid uint32) bool {
	switch oid {
	case pgtype.Int2OID, pgtype.Int4OID, pgtype.Int8OID, pgtype.Float4OID, pgtype.Float8OID,
		pgtype.BoolOID, pgtype.TimestampOID, pgtype.TimestamptzOID, pgtype.DateOID:
		return true
	}
	return false
}

// pgTimeLayout is a timestamp's text parameter: microseconds (pgx's binary
// encoding truncates to them too) and the full offset, which the server
// honours for timestamptz and ignores for timestamp, as pgx does.
const pgTimeLayout = "2006-01-02 15:04:05.000000-07:00:00"

// encode binds args as text parameters; false if one does not fit the lean
// path (the statement then runs through pgx).
func (f *pgFast) encode(args []any) bool {
	if len(args) != len(f.params) {
		return false
	}
	f.buf = f.buf[:0]
	// Offsets first, the views after: buf may move while it grows.
	for i, a := range args {
		oid := f.sd.ParamOIDs[i]
		if oid == pgtype.ByteaOID {
			return false
		}
		switch v := a.(type) {
		case nil:
			f.ends[i] = -1
			continue
		case int:
			f.buf = strconv.AppendInt(f.buf, int64(v), 10)
		case int64:
			f.buf = strconv.AppendInt(f.buf, v, 10)
		case int32:
			f.buf = strconv.AppendInt(f.buf, int64(v), 10)
		case int16:
			f.buf = strconv.AppendInt(f.buf, int64(v), 10)
		case uint32:
			f.buf = strconv.AppendUint(f.buf, uint64(v), 10)
		case float64:
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
			f.buf = strconv.AppendFloat(f.buf, v, 'g', -1, 64)
		case float32:
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return false
			}
			f.buf = strconv.AppendFloat(f.buf, float64(v), 'g', -1, 32)
		case bool:
			if v {
				f.buf = append(f.buf, 't')
			} else {
				f.buf = append(f.buf, 'f')
			}
		case string:
			f.buf = append(f.buf, v...)
		case time.Time:
			switch oid {
			case pgtype.TimestampOID, pgtype.TimestamptzOID, pgtype.DateOID:
			default:
				return false
			}
			if y := v.Year(); y < 1 || y > 9999 {
				return false
			}
			f.buf = v.AppendFormat(f.buf, pgTimeLayout)
		case encoding.TextAppender:
			switch oid {
			case pgtype.NumericOID, pgtype.Float8OID, pgtype.Float4OID, pgtype.TextOID, pgtype.VarcharOID:
			default:
				return false
			}
			var err error
			if f.buf, err = v.AppendText(f.buf); err != nil {
				return false
			}
		default:
			return false
		}
		f.ends[i] = len(f.buf)
	}
	start := 0
	for i, end := range f.ends {
		if end < 0 {
			f.params[i] = nil
			continue
		}
		f.params[i] = f.buf[start:end:end]
		start = end
	}
	return true
}

// exec runs the statement on pc with the parameters encode bound.
func (f *pgFast) exec(ctx context.Context, pc *pgconn.PgConn) *pgconn.ResultReader {
	return pc.ExecStatement(ctx, f.sd, f.params, nil, f.resFmt)
}

// scan decodes one row's values into dest.
func (f *pgFast) scan(tm *pgtype.Map, dest []any, vals [][]byte) error {
	if len(dest) != len(vals) {
		return fmt.Errorf("number of field descriptions must equal number of destinations, got %d and %d", len(vals), len(dest))
	}
	for i, d := range dest {
		oid, format := f.sd.Fields[i].DataTypeOID, f.resFmt[i]
		if err := scanValue(tm, oid, format, vals[i], d); err != nil {
			return fmt.Errorf("can't scan into dest[%d] (col: %s): %w", i, f.sd.Fields[i].Name, err)
		}
	}
	return nil
}

// scanValue decodes one value: the common pairs here, the rest (and NULL)
// by pgx's type map.
func scanValue(tm *pgtype.Map, oid uint32, format int16, src []byte, dst any) error {
	if src != nil {
		if format == pgtype.BinaryFormatCode {
			if scanBinary(oid, src, dst) {
				return nil
			}
		} else {
			switch d := dst.(type) {
			case *string:
				*d = string(src)
				return nil
			case encoding.TextUnmarshaler:
				return d.UnmarshalText(src)
			case *float64:
				if oid == pgtype.NumericOID || oid == pgtype.TextOID || oid == pgtype.VarcharOID {
					v, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(src), len(src)), 64)
					if err == nil {
						*d = v
						return nil
					}
				}
			}
		}
	}
	return tm.Scan(oid, format, src, dst)
}

// scanBinary decodes a binary integer or float into the destinations that
// hold it exactly; false leaves the value to pgx.
func scanBinary(oid uint32, src []byte, dst any) bool {
	var v int64
	switch {
	case oid == pgtype.Int8OID && len(src) == 8:
		v = int64(binary.BigEndian.Uint64(src))
	case oid == pgtype.Int4OID && len(src) == 4:
		v = int64(int32(binary.BigEndian.Uint32(src)))
	case oid == pgtype.Int2OID && len(src) == 2:
		v = int64(int16(binary.BigEndian.Uint16(src)))
	case oid == pgtype.Float8OID && len(src) == 8:
		if d, ok := dst.(*float64); ok {
			*d = math.Float64frombits(binary.BigEndian.Uint64(src))
			return true
		}
		return false
	case oid == pgtype.Float4OID && len(src) == 4:
		if d, ok := dst.(*float64); ok {
			*d = float64(math.Float32frombits(binary.BigEndian.Uint32(src)))
			return true
		}
		return false
	default:
		return false
	}
	switch d := dst.(type) {
	case *int64:
		*d = v
	case *int:
		*d = int(v)
	case *int32:
		if v < math.MinInt32 || v > math.MaxInt32 {
			return false
		}
		*d = int32(v)
	default:
		return false
	}
	return true
}

// pgFastRows is a Rows over a lean-path result; the Conn reuses one.
type pgFastRows struct {
	rr     *pgconn.ResultReader
	f      *pgFast
	tm     *pgtype.Map
	g      *stmtGuard
	err    error
	closed bool
	done   bool
}

func (p *pgFastRows) Next() bool {
	if p.closed {
		return false
	}
	if p.rr.NextRow() {
		return true
	}
	_, p.err = p.rr.Close()
	p.closed = true
	return false
}

func (p *pgFastRows) Scan(dest ...any) error {
	if p.closed {
		return fmt.Errorf("scan on a closed result")
	}
	return p.f.scan(p.tm, dest, p.rr.Values())
}

func (p *pgFastRows) Err() error { return p.err }

// Close reads what is left of the result and ends the guarded statement.
func (p *pgFastRows) Close() error {
	if !p.closed {
		_, p.err = p.rr.Close()
		p.closed = true
	}
	err := p.err
	if !p.done {
		p.done = true
		err = p.g.leave(err)
	}
	return err
}
