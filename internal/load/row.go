// Package load bulk-loads generated data sets in parallel. A workload
// describes its data as Units of work (typically one table for a range of
// warehouses); a pool of workers, each with its own session, runs the units,
// reports progress and records each finished unit inside the unit's own
// transaction so an interrupted load can be resumed exactly.
//
// Rows are produced by RowSources that write into a reusable []Field (no heap
// allocation per row in steady state). The batched multi-row INSERT writer in
// batch.go turns them into statement arguments; a streaming bulk path
// (LOAD DATA LOCAL INFILE / COPY) can consume the same Fields as text.
package load

import (
	"strconv"
	"time"
)

// FieldKind is the type of one generated column value.
type FieldKind uint8

const (
	// Int is an integer in I.
	Int FieldKind = iota
	// Cents is a DECIMAL(p,2) value held exactly as hundredths in I.
	Cents
	// Dec4 is a DECIMAL(p,4) value held exactly as ten-thousandths in I.
	Dec4
	// Text is a character string in B.
	Text
	// Time is a timestamp held as Unix seconds (UTC) in I.
	Time
	// Null is SQL NULL.
	Null
)

// Field is one column value of a generated row. B is owned by the generator
// and reused for the next row; consumers must copy what they keep.
type Field struct {
	Kind FieldKind
	I    int64
	B    []byte
}

// SetInt, SetCents, SetDec4, SetTime and SetNull assign a value in place.
func (f *Field) SetInt(v int64)     { f.Kind, f.I = Int, v }
func (f *Field) SetCents(v int64)   { f.Kind, f.I = Cents, v }
func (f *Field) SetDec4(v int64)    { f.Kind, f.I = Dec4, v }
func (f *Field) SetTime(unix int64) { f.Kind, f.I = Time, unix }
func (f *Field) SetNull()           { f.Kind = Null }

// Text resets the field to an empty string and returns its buffer for
// appending; assign the result back to f.B.
func (f *Field) Text() []byte { f.Kind = Text; return f.B[:0] }

// AppendText appends the value in a plain text form (decimal point for
// money, "2006-01-02 15:04:05" for times, "" for NULL) — the form a bulk
// loader writes; escaping is the caller's business.
func (f *Field) AppendText(b []byte) []byte {
	switch f.Kind {
	case Int:
		return strconv.AppendInt(b, f.I, 10)
	case Cents:
		return appendScaled(b, f.I, 2)
	case Dec4:
		return appendScaled(b, f.I, 4)
	case Text:
		return append(b, f.B...)
	case Time:
		return time.Unix(f.I, 0).UTC().AppendFormat(b, time.DateTime)
	}
	return b
}

// Size estimates the wire size of the value in bytes (for progress).
func (f *Field) Size() int {
	if f.Kind == Text {
		return len(f.B)
	}
	return 8
}

// appendScaled appends v/10^scale with exactly scale decimals.
func appendScaled(b []byte, v int64, scale int) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	p := int64(1)
	for i := 0; i < scale; i++ {
		p *= 10
	}
	b = strconv.AppendInt(b, v/p, 10)
	b = append(b, '.')
	frac := v % p
	for d := p / 10; d > 0; d /= 10 {
		b = append(b, byte('0'+frac/d))
		frac %= d
	}
	return b
}

// RowSource generates the rows of one unit in order. Next advances to the
// next row and returns false when there are no more; Row returns the current
// row's fields (valid until the next call to Next), in Columns order.
type RowSource interface {
	Columns() []string
	Next() bool
	Row() []Field
}
