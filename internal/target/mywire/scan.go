package mywire

import (
	"database/sql"
	"database/sql/driver"
	"encoding"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
	"unsafe"
)

// textScanner is an sql.Scanner that can also take a column's text directly:
// string and decimal values reach it through UnmarshalText without the
// []byte-in-interface allocation Scan needs (target.Cents). Both methods
// must agree.
type textScanner interface {
	sql.Scanner
	encoding.TextUnmarshaler
}

var errNull = errors.New("converting NULL is unsupported")

// assign stores v into dest with database/sql's conversions for the
// destination types benchmarks use: *int64, *int, *int32, *uint64, *float64,
// *string, *[]byte (a copy), *sql.RawBytes (valid until the next Next),
// *bool, *time.Time, *any, and sql.Scanner. Dates and times arrive as text,
// as go-sql-driver delivers them without parseTime, except into *time.Time.
func (c *Conn) assign(dest any, v *value, col *column) error {
	switch d := dest.(type) {
	case *int64:
		x, err := v.toInt()
		*d = x
		return err
	case *int:
		x, err := v.toInt()
		*d = int(x)
		return err
	case *int32:
		x, err := v.toInt()
		if err == nil && (x < math.MinInt32 || x > math.MaxInt32) {
			err = fmt.Errorf("value %d out of range for int32", x)
		}
		*d = int32(x)
		return err
	case *uint64:
		switch v.kind {
		case kindUint:
			*d = v.u
			return nil
		case kindInt:
			if v.i < 0 {
				return fmt.Errorf("value %d out of range for uint64", v.i)
			}
			*d = uint64(v.i)
			return nil
		case kindBytes:
			x, err := strconv.ParseUint(bytesString(v.bytes), 10, 64)
			*d = x
			return err
		}
		return v.mismatch("uint64")
	case *float64:
		x, err := v.toFloat(col)
		*d = x
		return err
	case *string:
		switch v.kind {
		case kindNull:
			return errNull
		case kindBytes:
			*d = string(v.bytes)
		default:
			*d = string(v.appendText(c.scratch[:0], col))
		}
		return nil
	case *[]byte:
		if v.kind == kindNull {
			*d = nil
			return nil
		}
		*d = v.appendText(nil, col)
		if *d == nil {
			*d = []byte{}
		}
		return nil
	case *sql.RawBytes:
		if v.kind == kindNull {
			*d = nil
			return nil
		}
		*d = v.appendText((*d)[:0], col)
		if *d == nil { // an empty value is not NULL
			*d = sql.RawBytes{}
		}
		return nil
	case *bool:
		switch v.kind {
		case kindInt:
			if v.i != 0 && v.i != 1 {
				return fmt.Errorf("value %d is not a boolean", v.i)
			}
			*d = v.i == 1
			return nil
		case kindBytes:
			x, err := strconv.ParseBool(bytesString(v.bytes))
			*d = x
			return err
		}
		return v.mismatch("bool")
	case *time.Time:
		if v.kind != kindBytes {
			return v.mismatch("time.Time")
		}
		t, err := parseDateTime(v.bytes, c.loc)
		*d = t
		return err
	case *any:
		switch v.kind {
		case kindNull:
			*d = nil
		case kindInt:
			*d = v.i
		default:
			*d = v.driverValue(col)
			if b, ok := (*d).([]byte); ok && v.kind == kindBytes {
				*d = append([]byte{}, b...) // a copy; empty but not nil
			}
		}
		return nil
	case textScanner:
		if v.kind == kindBytes {
			return d.UnmarshalText(v.bytes)
		}
		return d.Scan(v.driverValue(col))
	case sql.Scanner:
		return d.Scan(v.driverValue(col))
	}
	return fmt.Errorf("unsupported Scan destination %T", dest)
}

func (v *value) mismatch(to string) error {
	if v.kind == kindNull {
		return errNull
	}
	return fmt.Errorf("cannot convert %s value to %s", v.kindName(), to)
}

func (v *value) kindName() string {
	switch v.kind {
	case kindInt, kindUint:
		return "integer"
	case kindFloat:
		return "floating-point"
	}
	return "string"
}

func (v *value) toInt() (int64, error) {
	switch v.kind {
	case kindInt:
		return v.i, nil
	case kindBytes:
		return strconv.ParseInt(bytesString(v.bytes), 10, 64)
	case kindFloat:
		if v.f == math.Trunc(v.f) && v.f >= math.MinInt64 && v.f < math.MaxInt64 {
			return int64(v.f), nil
		}
		return 0, fmt.Errorf("value %v is not an integer", v.f)
	case kindUint:
		return 0, fmt.Errorf("value %d out of range for int64", v.u)
	}
	return 0, errNull
}

// toFloat converts like database/sql: a FLOAT column (float32 from
// go-sql-driver) goes through its shortest text, so 3.14 stays 3.14.
func (v *value) toFloat(col *column) (float64, error) {
	switch v.kind {
	case kindFloat:
		if col.typ == typeFloat {
			var tmp [32]byte
			return strconv.ParseFloat(bytesString(strconv.AppendFloat(tmp[:0], v.f, 'g', -1, 32)), 64)
		}
		return v.f, nil
	case kindInt:
		return float64(v.i), nil
	case kindUint:
		return float64(v.u), nil
	case kindBytes:
		return strconv.ParseFloat(bytesString(v.bytes), 64)
	}
	return 0, errNull
}

// appendText appends the value's text as database/sql would convert
// go-sql-driver's binary value (floats in their shortest form).
func (v *value) appendText(b []byte, col *column) []byte {
	switch v.kind {
	case kindInt:
		return strconv.AppendInt(b, v.i, 10)
	case kindUint:
		return strconv.AppendUint(b, v.u, 10)
	case kindFloat:
		bits := 64
		if col.typ == typeFloat {
			bits = 32
		}
		return strconv.AppendFloat(b, v.f, 'g', -1, bits)
	}
	return append(b, v.bytes...)
}

// driverValue is the value go-sql-driver's binary rows hand database/sql:
// int64, float32 (FLOAT) or float64 (DOUBLE), []byte (valid during the call;
// also unsigned values above MaxInt64, as text), or nil.
func (v *value) driverValue(col *column) driver.Value {
	switch v.kind {
	case kindInt:
		return v.i
	case kindUint:
		return strconv.AppendUint(nil, v.u, 10)
	case kindFloat:
		if col.typ == typeFloat {
			return float32(v.f)
		}
		return v.f
	case kindBytes:
		return v.bytes
	}
	return nil
}

// bytesString views b as a string for parsing; the parsers used do not
// retain it.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// parseDateTime parses the text forms appendBinaryDateTime produces (and
// the server's text protocol sends) in loc; zero dates give time.Time{}.
func parseDateTime(b []byte, loc *time.Location) (time.Time, error) {
	s := bytesString(b)
	if len(s) >= 10 && s[:10] == "0000-00-00" {
		return time.Time{}, nil
	}
	layout := "2006-01-02 15:04:05.999999"
	switch {
	case len(s) == 10:
		layout = "2006-01-02"
	case len(s) < 19:
		return time.Time{}, fmt.Errorf("invalid time value %q", s)
	}
	t, err := time.ParseInLocation(layout, s, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("invalid time value %q", s)
	}
	return t, nil
}
