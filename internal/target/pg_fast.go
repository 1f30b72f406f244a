package target

import (
	"database/sql"
	"encoding"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
	"unsafe"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// The lean path for PostgreSQL prepared statements, what mywire is for
// MySQL. pgx's Conn.Query costs 8 heap objects per point select and 14 per
// update (a Rows, its scan plans, the argument encoder's state) and plans
// every Scan again; the lean path costs 2 (TestPGLeanPathAllocations). A
// benchmark's statements are few, prepared once, and bind a handful of
// plain values. pgFast runs a prepared statement on the session's
// pgconn.PgConn directly (ExecStatement: Bind/Execute/Sync, no Describe),
// binds the arguments as text into buffers owned by the session and
// decodes the common (column type, destination) pairs itself:
//
//   - parameters: nil, integers, floats (finite), bool and string (also
//     *int64 and *string) for any parameter type but bytea; time.Time (and
//     *time.Time) for timestamp, timestamptz and date;
//     encoding.TextAppender values (Cents, Decimal4, *TextBuf) for numeric,
//     float and character parameters. The server parses the text exactly as it
//     parses sysbench's (libpq's) text parameters.
//   - results: fixed-width types (integers, floats, bool, timestamps, date)
//     come in binary, the rest (numeric, text, varchar) as text; integers
//     into *int64/*int/*int32, float8/float4 into *float64, text into
//     *string or *TextBuf, integers or NULL into *sql.NullInt64, anything
//     into *Discard, and numeric columns into encoding.TextUnmarshaler (Cents
//     and Decimal4 read the decimal text exactly, discard skips it).
//
// Anything else takes pgx's own way: a statement whose arguments do not fit
// runs through Conn.Query as before, and a value whose destination does not
// fit (NULL included) is scanned by pgx's type map, so the results and
// errors are pgx's. Server errors are the same *pgconn.PgError.
type pgFast struct {
	sd     *pgconn.StatementDescription
	resFmt []int16 // per result column
}

// pgArgs holds the bound parameters of the statement being sent. One per
// session, not per statement: a session sends one statement at a time and
// pgconn copies the values into its write buffer before ExecStatement
// returns, and per-statement buffers cost a TPC-C session (batched
// New-Order inserts of up to 150 parameters, a statement per line count)
// ~9 KB, 19 MB at 2048 terminals.
type pgArgs struct {
	params [][]byte // views into buf
	ends   []int    // where each parameter ends in buf; -1: NULL
	buf    []byte
}

// newPGFast returns the lean path for a prepared statement's description.
func newPGFast(sd *pgconn.StatementDescription) *pgFast {
	f := &pgFast{sd: sd}
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

// encode binds args as text parameters into a; false if one does not fit
// the lean path (the statement then runs through pgx).
func (f *pgFast) encode(a *pgArgs, args []any) bool {
	n := len(f.sd.ParamOIDs)
	if len(args) != n {
		return false
	}
	if cap(a.params) < n {
		a.params, a.ends = make([][]byte, n), make([]int, n)
	}
	a.params, a.ends = a.params[:n], a.ends[:n]
	buf := a.buf[:0]
	// Offsets first, the views after: buf may move while it grows.
	for i, arg := range args {
		oid := f.sd.ParamOIDs[i]
		if oid == pgtype.ByteaOID {
			return false
		}
		switch v := arg.(type) {
		case nil:
			a.ends[i] = -1
			continue
		case int:
			buf = strconv.AppendInt(buf, int64(v), 10)
		case int64:
			buf = strconv.AppendInt(buf, v, 10)
		case *int64: // as pgx and database/sql accept it; nil is NULL
			if v == nil {
				a.ends[i] = -1
				continue
			}
			buf = strconv.AppendInt(buf, *v, 10)
		case int32:
			buf = strconv.AppendInt(buf, int64(v), 10)
		case int16:
			buf = strconv.AppendInt(buf, int64(v), 10)
		case uint32:
			buf = strconv.AppendUint(buf, uint64(v), 10)
		case float64:
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		case float32:
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return false
			}
			buf = strconv.AppendFloat(buf, float64(v), 'g', -1, 32)
		case bool:
			if v {
				buf = append(buf, 't')
			} else {
				buf = append(buf, 'f')
			}
		case string:
			buf = append(buf, v...)
		case *string: // by pointer, as pgx and database/sql accept it; nil is NULL
			if v == nil {
				a.ends[i] = -1
				continue
			}
			buf = append(buf, *v...)
		case time.Time:
			var ok bool
			if buf, ok = appendPGTime(buf, oid, v); !ok {
				return false
			}
		case *time.Time:
			if v == nil {
				a.ends[i] = -1
				continue
			}
			var ok bool
			if buf, ok = appendPGTime(buf, oid, *v); !ok {
				return false
			}
		case encoding.TextAppender:
			switch oid {
			case pgtype.NumericOID, pgtype.Float8OID, pgtype.Float4OID, pgtype.TextOID, pgtype.VarcharOID, pgtype.BPCharOID:
			default:
				return false
			}
			if isNilPointer(v) { // *Cents, *TextBuf: pgx's way (NULL)
				return false
			}
			var err error
			if buf, err = v.AppendText(buf); err != nil {
				return false
			}
		default:
			return false
		}
		a.ends[i] = len(buf)
	}
	a.buf = buf
	start := 0
	for i, end := range a.ends {
		if end < 0 {
			a.params[i] = nil
			continue
		}
		a.params[i] = buf[start:end:end]
		start = end
	}
	return true
}

// appendPGTime appends a time parameter's text for a timestamp,
// timestamptz or date parameter; false for other types and years pgx
// encodes differently.
func appendPGTime(buf []byte, oid uint32, v time.Time) ([]byte, bool) {
	switch oid {
	case pgtype.TimestampOID, pgtype.TimestamptzOID, pgtype.DateOID:
	default:
		return buf, false
	}
	if y := v.Year(); y < 1 || y > 9999 {
		return buf, false
	}
	return v.AppendFormat(buf, pgTimeLayout), true
}

// isNilPointer reports whether v holds a nil pointer.
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
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
	switch d := dst.(type) {
	case *Discard:
		return nil
	case *TextBuf:
		if src != nil && textOID(oid) {
			d.Set(src) // the same bytes in text and binary format
			return nil
		}
	case *sql.NullInt64:
		if src == nil {
			*d = sql.NullInt64{}
			return nil
		}
		if v, ok := binaryInt(oid, format, src); ok {
			*d = sql.NullInt64{Int64: v, Valid: true}
			return nil
		}
	}
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
				if oid == pgtype.NumericOID { // Cents, Decimal4; not time.Time from a text column
					return d.UnmarshalText(src)
				}
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

// textOID reports the character types whose value is its text.
func textOID(oid uint32) bool {
	return oid == pgtype.TextOID || oid == pgtype.VarcharOID || oid == pgtype.BPCharOID
}

// binaryInt decodes a binary integer column's value.
func binaryInt(oid uint32, format int16, src []byte) (int64, bool) {
	if format != pgtype.BinaryFormatCode {
		return 0, false
	}
	switch {
	case oid == pgtype.Int8OID && len(src) == 8:
		return int64(binary.BigEndian.Uint64(src)), true
	case oid == pgtype.Int4OID && len(src) == 4:
		return int64(int32(binary.BigEndian.Uint32(src))), true
	case oid == pgtype.Int2OID && len(src) == 2:
		return int64(int16(binary.BigEndian.Uint16(src))), true
	}
	return 0, false
}

// scanBinary decodes a binary integer or float into the destinations that
// hold it exactly; false leaves the value to pgx.
func scanBinary(oid uint32, src []byte, dst any) bool {
	v, isInt := binaryInt(oid, pgtype.BinaryFormatCode, src)
	switch {
	case isInt:
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

// pgFastRows is a Rows over a lean-path result; the Conn reuses one and
// guards it with a guardedRows.
type pgFastRows struct {
	rr     *pgconn.ResultReader
	f      *pgFast
	tm     *pgtype.Map
	err    error
	closed bool
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

// Close reads what is left of the result.
func (p *pgFastRows) Close() error {
	if !p.closed {
		_, p.err = p.rr.Close()
		p.closed = true
	}
	return p.err
}
