package mywire

import (
	"database/sql/driver"
	"encoding"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"time"
)

// Field types used to bind parameters (binary protocol).
const (
	typeDecimal    = 0x00
	typeTiny       = 0x01
	typeShort      = 0x02
	typeLong       = 0x03
	typeFloat      = 0x04
	typeDouble     = 0x05
	typeNull       = 0x06
	typeTimestamp  = 0x07
	typeLongLong   = 0x08
	typeInt24      = 0x09
	typeDate       = 0x0a
	typeTime       = 0x0b
	typeDateTime   = 0x0c
	typeYear       = 0x0d
	typeNewDate    = 0x0e
	typeVarChar    = 0x0f
	typeBit        = 0x10
	typeJSON       = 0xf5
	typeNewDecimal = 0xf6
	typeEnum       = 0xf7
	typeSet        = 0xf8
	typeTinyBlob   = 0xf9
	typeMediumBlob = 0xfa
	typeLongBlob   = 0xfb
	typeBlob       = 0xfc
	typeVarString  = 0xfd
	typeString     = 0xfe
	typeGeometry   = 0xff
)

// paramUnsigned is the flag byte after a parameter's type for unsigned
// integers.
const paramUnsigned = 0x80

// appendParams appends the NULL bitmap, new-params-bound flag, parameter
// types and values of COM_STMT_EXECUTE for s. Types are sent only when they
// differ from the previous execution's (new-params-bound = 0 reuses them,
// as libmariadb does), which spares the server re-binding every run. The bound
// values are those go-sql-driver sends for the same Go types (time.Time as
// text in the session's location, []byte(nil) as NULL), and any
// driver.Valuer that is also an encoding.TextAppender (target.Cents) is sent
// as its text without an intermediate string (a *target.TextBuf too).
// Pointers to int64, string and time.Time are sent as their values (nil as
// NULL): callers keep arguments in place to bind them without boxing each.
func (c *Conn) appendParams(b []byte, s *Stmt, args []any) ([]byte, error) {
	nullPos := len(b)
	for i := 0; i < (len(args)+7)/8; i++ {
		b = append(b, 0)
	}
	b = append(b, 1) // new-params-bound
	typePos := len(b)
	for range args {
		b = append(b, 0, 0)
	}
	for i, a := range args {
		var typ, flag byte
		var err error
		b, typ, flag, err = c.appendValue(b, a, true)
		if err != nil {
			return b, fmt.Errorf("argument %d: %w", i+1, err)
		}
		if typ == typeNull {
			b[nullPos+i/8] |= 1 << (i % 8)
		}
		b[typePos+2*i], b[typePos+2*i+1] = typ, flag
	}
	types := b[typePos : typePos+2*len(args)]
	if s.typesSent && string(types) == string(s.types) {
		b[typePos-1] = 0
		b = append(b[:typePos], b[typePos+len(types):]...)
		return b, nil
	}
	s.types = append(s.types[:0], types...)
	s.typesSent = true
	return b, nil
}

// appendValue appends one parameter value and returns its wire type.
// convert allows one round of driver.Valuer / reflection-based conversion
// for types outside the fast set.
func (c *Conn) appendValue(b []byte, a any, convert bool) ([]byte, byte, byte, error) {
	switch v := a.(type) {
	case nil:
		return b, typeNull, 0, nil
	case int64:
		return binary.LittleEndian.AppendUint64(b, uint64(v)), typeLongLong, 0, nil
	case *int64:
		// A pointer, as database/sql accepts one: callers keep integer
		// arguments in place to send them without boxing each (a nil
		// pointer is NULL).
		if v == nil {
			return b, typeNull, 0, nil
		}
		return binary.LittleEndian.AppendUint64(b, uint64(*v)), typeLongLong, 0, nil
	case int:
		return binary.LittleEndian.AppendUint64(b, uint64(int64(v))), typeLongLong, 0, nil
	case int32:
		return binary.LittleEndian.AppendUint64(b, uint64(int64(v))), typeLongLong, 0, nil
	case int16:
		return binary.LittleEndian.AppendUint64(b, uint64(int64(v))), typeLongLong, 0, nil
	case int8:
		return binary.LittleEndian.AppendUint64(b, uint64(int64(v))), typeLongLong, 0, nil
	case uint64:
		return binary.LittleEndian.AppendUint64(b, v), typeLongLong, paramUnsigned, nil
	case uint:
		return binary.LittleEndian.AppendUint64(b, uint64(v)), typeLongLong, paramUnsigned, nil
	case uint32:
		return binary.LittleEndian.AppendUint64(b, uint64(v)), typeLongLong, paramUnsigned, nil
	case uint16:
		return binary.LittleEndian.AppendUint64(b, uint64(v)), typeLongLong, paramUnsigned, nil
	case uint8:
		return binary.LittleEndian.AppendUint64(b, uint64(v)), typeLongLong, paramUnsigned, nil
	case bool:
		x := byte(0)
		if v {
			x = 1
		}
		return append(b, x), typeTiny, 0, nil
	case float64:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v)), typeDouble, 0, nil
	case float32:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(float64(v))), typeDouble, 0, nil
	case string:
		b = appendLenEnc(b, uint64(len(v)))
		return append(b, v...), typeString, 0, nil
	case *string:
		// By pointer, as database/sql accepts it: a string in an interface
		// is a heap object (runtime.convTstring). nil is NULL.
		if v == nil {
			return b, typeNull, 0, nil
		}
		b = appendLenEnc(b, uint64(len(*v)))
		return append(b, *v...), typeString, 0, nil
	case []byte:
		if v == nil {
			return b, typeNull, 0, nil
		}
		b = appendLenEnc(b, uint64(len(v)))
		return append(b, v...), typeString, 0, nil
	case time.Time:
		return c.appendTime(b, v)
	case *time.Time:
		// By pointer for the same reason (time.Time is 24 bytes); nil is NULL.
		if v == nil {
			return b, typeNull, 0, nil
		}
		return c.appendTime(b, *v)
	case textValue:
		if isNilPointer(a) {
			return b, typeNull, 0, nil
		}
		return appendText(b, v)
	}
	if !convert {
		return b, 0, 0, fmt.Errorf("unsupported type %T", a)
	}
	var dv driver.Value
	var err error
	rv := reflect.ValueOf(a)
	switch {
	case rv.Kind() == reflect.Pointer && rv.IsNil():
		// A nil pointer is NULL, also when its type's Value method has a
		// value receiver (database/sql's callValuerValue).
		return b, typeNull, 0, nil
	case rv.CanUint() && rv.Uint() >= 1<<63:
		// Named unsigned types with the high bit set, which database/sql's
		// converter rejects, are unsigned (go-sql-driver's converter).
		return binary.LittleEndian.AppendUint64(b, rv.Uint()), typeLongLong, paramUnsigned, nil
	}
	if vr, ok := a.(driver.Valuer); ok {
		dv, err = vr.Value()
	} else {
		dv, err = driver.DefaultParameterConverter.ConvertValue(a)
	}
	if err != nil {
		return b, 0, 0, err
	}
	return c.appendValue(b, dv, false)
}

// appendTime appends t as go-sql-driver sends a time.Time: text in the
// session's location, the zero time as "0000-00-00".
func (c *Conn) appendTime(b []byte, v time.Time) ([]byte, byte, byte, error) {
	var tmp [32]byte
	t := tmp[:0]
	if v.IsZero() {
		t = append(t, "0000-00-00"...)
	} else {
		var err error
		if t, err = appendDateTime(t, v.In(c.loc)); err != nil {
			return b, 0, 0, err
		}
	}
	b = appendLenEnc(b, uint64(len(t)))
	return append(b, t...), typeString, 0, nil
}

// textValue is a driver.Valuer that can also append its text: such values
// (target.Cents, target.Decimal4) are sent as that text without the
// intermediate string Value would allocate. Both methods must agree.
type textValue interface {
	driver.Valuer
	encoding.TextAppender
}

// isNilPointer reports whether a holds a nil pointer.
func isNilPointer(a any) bool {
	rv := reflect.ValueOf(a)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// appendText appends v's text as a length-encoded string, reserving one
// length byte and moving the text only if it is 251 bytes or longer.
func appendText(b []byte, v textValue) ([]byte, byte, byte, error) {
	at := len(b)
	b = append(b, 0)
	b, err := v.AppendText(b)
	if err != nil {
		return b[:at], 0, 0, err
	}
	n := len(b) - at - 1
	if n < 0xfb {
		b[at] = byte(n)
		return b, typeString, 0, nil
	}
	var hdr [9]byte
	h := appendLenEnc(hdr[:0], uint64(n))
	b = append(b, h[1:]...) // grow by the extra header bytes
	copy(b[at+len(h):], b[at+1:at+1+n])
	copy(b[at:], h)
	return b, typeString, 0, nil
}

// appendDateTime formats t as go-sql-driver does: date only at midnight,
// else seconds, with trailing zeros of the fraction trimmed.
func appendDateTime(b []byte, t time.Time) ([]byte, error) {
	y := t.Year()
	if y < 1 || y > 9999 {
		return b, fmt.Errorf("year is not in the range [1, 9999]: %d", y)
	}
	b = appendDate(b, y, int(t.Month()), t.Day())
	h, m, s := t.Clock()
	ns := t.Nanosecond()
	if h == 0 && m == 0 && s == 0 && ns == 0 {
		return b, nil
	}
	b = appendClock(append(b, ' '), h, m, s)
	if ns == 0 {
		return b, nil
	}
	b = append(b, '.')
	var frac [9]byte
	for i := 8; i >= 0; i-- {
		frac[i] = byte('0' + ns%10)
		ns /= 10
	}
	n := 9
	for n > 0 && frac[n-1] == '0' {
		n--
	}
	return append(b, frac[:n]...), nil
}

// appendDate appends YYYY-MM-DD.
func appendDate(b []byte, y, mo, d int) []byte {
	b = append4(b, y)
	b = append(b, '-')
	b = append2(b, mo)
	b = append(b, '-')
	return append2(b, d)
}

// appendClock appends hh:mm:ss (hours below 100).
func appendClock(b []byte, h, m, s int) []byte {
	b = append2(b, h)
	b = append(b, ':')
	b = append2(b, m)
	b = append(b, ':')
	return append2(b, s)
}

func append2(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }

func append4(b []byte, v int) []byte {
	return append(b, byte('0'+v/1000), byte('0'+v/100%10), byte('0'+v/10%10), byte('0'+v%10))
}
