package target

import (
	"bytes"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// TextBuf is a reusable text value for the hot path: a terminal scans a
// character column into a *TextBuf and binds a *TextBuf as a string argument
// without a heap object per value once its buffer has grown to the longest
// value (a string destination costs one per column per row, a string
// argument one per statement: runtime.convTstring). The MySQL protocol
// client and the PostgreSQL lean path read and send its bytes directly;
// pgx and database/sql backends use Scan and Value (which copy, as for a
// string). A TextBuf holds what was last scanned or set until the next Scan
// or Set; the zero value is the empty text. NULL is an error, as for a
// *string destination.
type TextBuf struct{ b []byte }

var errNullText = errors.New("converting NULL to TextBuf is unsupported")

// Bytes returns the text; valid until the next Scan or Set.
func (t *TextBuf) Bytes() []byte { return t.b }

// String returns a copy of the text.
func (t *TextBuf) String() string { return string(t.b) }

// Len is the text's length in bytes.
func (t *TextBuf) Len() int { return len(t.b) }

// Equal reports whether the text is s.
func (t *TextBuf) Equal(s string) bool { return string(t.b) == s }

// Contains reports whether sub is within the text.
func (t *TextBuf) Contains(sub string) bool { return bytes.Contains(t.b, []byte(sub)) }

// Set makes the text a copy of b.
func (t *TextBuf) Set(b []byte) { t.b = append(t.b[:0], b...) }

// SetString makes the text a copy of s.
func (t *TextBuf) SetString(s string) { t.b = append(t.b[:0], s...) }

// UnmarshalText sets the text to a copy of b: the MySQL protocol client
// hands a character column's bytes here (mywire's textScanner).
func (t *TextBuf) UnmarshalText(b []byte) error {
	t.Set(b)
	return nil
}

// Scan implements sql.Scanner (database/sql, pgx) with database/sql's
// conversions into a *string: text as it is, numbers and booleans
// formatted, times in RFC 3339 with nanoseconds; NULL is an error.
func (t *TextBuf) Scan(src any) error {
	switch v := src.(type) {
	case string:
		t.SetString(v)
	case []byte:
		t.Set(v)
	case int64:
		t.b = strconv.AppendInt(t.b[:0], v, 10)
	case float64:
		t.b = strconv.AppendFloat(t.b[:0], v, 'g', -1, 64)
	case bool:
		t.b = strconv.AppendBool(t.b[:0], v)
	case time.Time:
		t.b = v.AppendFormat(t.b[:0], time.RFC3339Nano)
	case nil:
		return errNullText
	default:
		return fmt.Errorf("cannot scan %T into TextBuf", src)
	}
	return nil
}

// AppendText appends the text: the MySQL protocol client and the
// PostgreSQL lean path send a *TextBuf argument this way, without a copy.
func (t *TextBuf) AppendText(b []byte) ([]byte, error) { return append(b, t.b...), nil }

// Value implements driver.Valuer (database/sql and pgx send a string).
func (t *TextBuf) Value() (driver.Value, error) { return string(t.b), nil }
