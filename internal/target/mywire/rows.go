package mywire

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Rows is the binary result set of one execution. It is reused by the next
// Query on the same Conn.
type Rows struct {
	c    *Conn
	s    *Stmt
	row  []byte // current row packet, valid until the next read
	done bool
	err  error
}

func (c *Conn) startRows(s *Stmt, empty bool) *Rows {
	c.rows = Rows{c: c, s: s, done: empty}
	return &c.rows
}

// Columns is the number of result columns.
func (r *Rows) Columns() int { return len(r.s.cols) }

// Next reads the next row; false at the end or on error (see Err).
func (r *Rows) Next() bool {
	if r.done {
		return false
	}
	p, err := r.c.readPacket()
	if err != nil {
		r.finish(err)
		return false
	}
	switch {
	case p[0] == pktOK:
		r.row = p
		return true
	case p[0] == pktERR:
		r.finish(serverError(p))
	case isEnd(p):
		err := r.c.endOfResult(p)
		if err == nil {
			err = r.c.moreResults()
		}
		r.finish(err)
	default:
		r.finish(r.c.protocolError("unexpected packet 0x%02x in binary result", p[0]))
	}
	return false
}

func (r *Rows) finish(err error) {
	r.done, r.row = true, nil
	if r.err == nil {
		r.err = err
	}
}

// Err is the error that ended the rows, if any.
func (r *Rows) Err() error { return r.err }

// Close consumes the remaining rows so that the session can run the next
// command, and returns the error that ended them, if any.
func (r *Rows) Close() error {
	for r.Next() {
	}
	return r.err
}

// Scan decodes the current row into dest, one pointer per column (see
// assign for the destination types).
func (r *Rows) Scan(dest ...any) error {
	if r.row == nil {
		return fmt.Errorf("mywire: Scan called without a current row")
	}
	cols := r.s.cols
	if len(dest) != len(cols) {
		return fmt.Errorf("sql: expected %d destination arguments in Scan, not %d", len(cols), len(dest))
	}
	p := r.row
	nullMap := p[1:]
	pos := 1 + (len(cols)+7+2)/8
	if pos > len(p) {
		return r.c.protocolError("short binary row")
	}
	for i := range cols {
		col := &cols[i]
		var v value
		if nullMap[(i+2)/8]&(1<<((i+2)%8)) != 0 {
			v.kind = kindNull
		} else {
			n, err := r.c.decode(p[pos:], col, &v)
			if err != nil {
				return r.c.protocolError("column %d: %v", i, err)
			}
			pos += n
		}
		if err := r.c.assign(dest[i], &v, col); err != nil {
			return fmt.Errorf("sql: Scan error on column index %d, name %q: %w", i, col.name, err)
		}
	}
	return nil
}

// value is one decoded column value; bytes alias the row packet or the
// Conn's scratch buffer.
type value struct {
	kind  valueKind
	i     int64
	u     uint64
	f     float64
	bytes []byte
}

type valueKind uint8

const (
	kindNull valueKind = iota
	kindInt
	kindUint  // unsigned BIGINT above MaxInt64
	kindFloat // FLOAT and DOUBLE
	kindBytes // strings, decimals, blobs, and dates/times as text
)

// decode reads one non-NULL binary value of col at the start of p and
// returns its length (Binary Protocol Value).
func (c *Conn) decode(p []byte, col *column, v *value) (int, error) {
	need := func(n int) error {
		if len(p) < n {
			return fmt.Errorf("short value")
		}
		return nil
	}
	switch col.typ {
	case typeTiny:
		if err := need(1); err != nil {
			return 0, err
		}
		v.kind = kindInt
		if col.unsigned {
			v.i = int64(p[0])
		} else {
			v.i = int64(int8(p[0]))
		}
		return 1, nil
	case typeShort, typeYear:
		if err := need(2); err != nil {
			return 0, err
		}
		x := binary.LittleEndian.Uint16(p)
		v.kind = kindInt
		if col.unsigned {
			v.i = int64(x)
		} else {
			v.i = int64(int16(x))
		}
		return 2, nil
	case typeLong, typeInt24:
		if err := need(4); err != nil {
			return 0, err
		}
		x := binary.LittleEndian.Uint32(p)
		v.kind = kindInt
		if col.unsigned {
			v.i = int64(x)
		} else {
			v.i = int64(int32(x))
		}
		return 4, nil
	case typeLongLong:
		if err := need(8); err != nil {
			return 0, err
		}
		x := binary.LittleEndian.Uint64(p)
		if col.unsigned && x > 1<<63-1 {
			v.kind, v.u = kindUint, x
		} else {
			v.kind, v.i = kindInt, int64(x)
		}
		return 8, nil
	case typeFloat:
		if err := need(4); err != nil {
			return 0, err
		}
		v.kind, v.f = kindFloat, float64(math.Float32frombits(binary.LittleEndian.Uint32(p)))
		return 4, nil
	case typeDouble:
		if err := need(8); err != nil {
			return 0, err
		}
		v.kind, v.f = kindFloat, math.Float64frombits(binary.LittleEndian.Uint64(p))
		return 8, nil
	case typeDate, typeNewDate, typeDateTime, typeTimestamp:
		n, k := lenEnc(p)
		if k == 0 || len(p) < k+int(n) {
			return 0, fmt.Errorf("short date value")
		}
		v.kind = kindBytes
		v.bytes = appendBinaryDateTime(c.scratch[:0], p[k:k+int(n)], col)
		return k + int(n), nil
	case typeTime:
		n, k := lenEnc(p)
		if k == 0 || len(p) < k+int(n) {
			return 0, fmt.Errorf("short time value")
		}
		v.kind = kindBytes
		v.bytes = appendBinaryTime(c.scratch[:0], p[k:k+int(n)], col)
		return k + int(n), nil
	}
	// Everything else is a length-encoded string: VARCHAR, CHAR, TEXT, BLOB,
	// DECIMAL, ENUM, SET, BIT, JSON, GEOMETRY.
	n, k := lenEnc(p)
	if k == 0 || len(p) < k+int(n) {
		return 0, fmt.Errorf("short string value")
	}
	v.kind, v.bytes = kindBytes, p[k:k+int(n):k+int(n)]
	return k + int(n), nil
}
