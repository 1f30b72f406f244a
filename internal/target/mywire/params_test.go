package mywire

import (
	"bytes"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// newParamConn is a Conn without a socket, enough to encode parameters.
func newParamConn(loc *time.Location) *Conn { return New(nil, Caps{}, loc) }

// paramCase is one argument and its exact COM_STMT_EXECUTE encoding.
type paramCase struct {
	name      string
	arg       any
	typ, flag byte
	val       []byte // value bytes; empty for NULL
	null      bool
}

var plus2 = time.FixedZone("UTC+2", 2*3600)

var paramCases = []paramCase{
	{"int64", int64(-2), typeLongLong, 0, i64(-2), false},
	{"string", "héllo", typeString, 0, []byte{6, 'h', 0xc3, 0xa9, 'l', 'l', 'o'}, false},
	{"nil", nil, typeNull, 0, nil, true},
	{"float64", 1.5, typeDouble, 0, []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x3f}, false},
	{"true", true, typeTiny, 0, []byte{1}, false},
	{"false", false, typeTiny, 0, []byte{0}, false},
	{"nil []byte", []byte(nil), typeNull, 0, nil, true},
	{"empty []byte", []byte{}, typeString, 0, []byte{0}, false},
	{"[]byte", []byte("ab"), typeString, 0, []byte{2, 'a', 'b'}, false},
	{"uint64 max", uint64(math.MaxUint64), typeLongLong, paramUnsigned, bytes.Repeat([]byte{0xff}, 8), false},
	{"int", 7, typeLongLong, 0, i64(7), false},
	{"int32", int32(-1), typeLongLong, 0, bytes.Repeat([]byte{0xff}, 8), false},
	{"int16", int16(-300), typeLongLong, 0, i64(-300), false},
	{"int8", int8(-128), typeLongLong, 0, i64(-128), false},
	{"uint", uint(9), typeLongLong, paramUnsigned, le64(9), false},
	{"uint32", uint32(math.MaxUint32), typeLongLong, paramUnsigned, le64(math.MaxUint32), false},
	{"uint16", uint16(65535), typeLongLong, paramUnsigned, le64(65535), false},
	{"uint8", uint8(255), typeLongLong, paramUnsigned, le64(255), false},
	{"float32", float32(0.1), typeDouble, 0, f64(float64(float32(0.1))), false},
	{"time UTC", time.Date(2024, 2, 3, 4, 5, 6, 7_000_000, time.UTC), typeString, 0, lstr("2024-02-03 04:05:06.007"), false},
	{"time UTC+2 to UTC", time.Date(2024, 2, 3, 1, 0, 0, 0, plus2), typeString, 0, lstr("2024-02-02 23:00:00"), false},
	{"time midnight", time.Date(2024, 2, 3, 0, 0, 0, 0, time.UTC), typeString, 0, lstr("2024-02-03"), false},
	{"zero time", time.Time{}, typeString, 0, lstr("0000-00-00"), false},
	{"string 300 bytes", strings.Repeat("x", 300), typeString, 0, append([]byte{0xfc, 0x2c, 0x01}, strings.Repeat("x", 300)...), false},
	{"*int64", new(int64(100_000)), typeLongLong, 0, i64(100_000), false},
	{"nil *int64", (*int64)(nil), typeNull, 0, nil, true},
	{"*string", new("héllo"), typeString, 0, []byte{6, 'h', 0xc3, 0xa9, 'l', 'l', 'o'}, false},
	{"nil *string", (*string)(nil), typeNull, 0, nil, true},
	{"*time.Time", new(time.Date(2024, 2, 3, 4, 5, 6, 7_000_000, time.UTC)), typeString, 0, lstr("2024-02-03 04:05:06.007"), false},
	{"nil *time.Time", (*time.Time)(nil), typeNull, 0, nil, true},
}

// TestAppendParamsLayout pins the whole parameter block byte for byte:
// NULL bitmap, new-params-bound = 1, (type, flag) pairs, values, appended
// after what the buffer already holds.
func TestAppendParamsLayout(t *testing.T) {
	c := newParamConn(nil)
	s := &Stmt{nParams: 3}
	got, err := c.appendParams([]byte{0xaa}, s, []any{int64(1), nil, "ab"})
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{
		0xaa,                               // existing bytes
		0x02,                               // NULL bitmap: argument 2
		0x01,                               // new-params-bound
		0x08, 0x00, 0x06, 0x00, 0xfe, 0x00, // LONGLONG, NULL, STRING
		1, 0, 0, 0, 0, 0, 0, 0, // 1
		2, 'a', 'b', // "ab"
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("appendParams =\n% x\nwant\n% x", got, want)
	}
}

// TestAppendParamsValues checks the wire type, unsigned flag, value bytes
// and NULL bit of every supported Go type: each alone, then all in one
// statement (a NULL bitmap of several bytes).
func TestAppendParamsValues(t *testing.T) {
	for _, tc := range paramCases {
		t.Run(tc.name, func(t *testing.T) {
			c := newParamConn(time.UTC)
			got, err := c.appendParams(nil, &Stmt{nParams: 1}, []any{tc.arg})
			if err != nil {
				t.Fatal(err)
			}
			bitmap := byte(0)
			if tc.null {
				bitmap = 1
			}
			want := cat([]byte{bitmap, 1, tc.typ, tc.flag}, tc.val)
			if !bytes.Equal(got, want) {
				t.Fatalf("appendParams(%#v) =\n% x\nwant\n% x", tc.arg, got, want)
			}
		})
	}
	t.Run("all", func(t *testing.T) {
		c := newParamConn(time.UTC)
		args := make([]any, len(paramCases))
		bitmap := make([]byte, (len(paramCases)+7)/8)
		var types, vals []byte
		for i, tc := range paramCases {
			args[i] = tc.arg
			if tc.null {
				bitmap[i/8] |= 1 << (i % 8)
			}
			types = append(types, tc.typ, tc.flag)
			vals = append(vals, tc.val...)
		}
		got, err := c.appendParams(nil, &Stmt{nParams: len(args)}, args)
		if err != nil {
			t.Fatal(err)
		}
		if want := cat(bitmap, []byte{1}, types, vals); !bytes.Equal(got, want) {
			t.Fatalf("appendParams =\n% x\nwant\n% x", got, want)
		}
		if len(bitmap) != 4 || bitmap[0] != 0b01000100 || bitmap[1] != 0 || bitmap[2] != 0 || bitmap[3] != 0b101010 {
			t.Fatalf("bitmap % x: test table changed, adjust the expectation", bitmap)
		}
	})
}

// TestAppendParamsNullBitmapBytes checks NULL bits beyond the first byte:
// arguments 1, 8 and 9 of nine set bits 0 and 7 of byte 0 and bit 0 of
// byte 1.
func TestAppendParamsNullBitmapBytes(t *testing.T) {
	c := newParamConn(nil)
	args := []any{nil, int64(1), int64(2), int64(3), int64(4), int64(5), int64(6), nil, nil}
	got, err := c.appendParams(nil, &Stmt{nParams: 9}, args)
	if err != nil {
		t.Fatal(err)
	}
	want := cat([]byte{0x81, 0x01, 0x01},
		[]byte{6, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 6, 0, 6, 0},
		i64(1), i64(2), i64(3), i64(4), i64(5), i64(6))
	if !bytes.Equal(got, want) {
		t.Fatalf("appendParams =\n% x\nwant\n% x", got, want)
	}
}

// TestAppendParamsLocation checks that time.Time arguments are rendered in
// the session's location (go-sql-driver's loc), and that New's nil
// location means UTC.
func TestAppendParamsLocation(t *testing.T) {
	at := time.Date(2024, 2, 3, 20, 0, 0, 500_000_000, time.UTC)
	tests := []struct {
		loc  *time.Location
		arg  time.Time
		want string
	}{
		{nil, at, "2024-02-03 20:00:00.5"},
		{time.UTC, at, "2024-02-03 20:00:00.5"},
		{time.FixedZone("UTC+9", 9*3600), at, "2024-02-04 05:00:00.5"},
		{time.FixedZone("UTC-20", -20*3600), time.Date(2024, 2, 3, 20, 0, 0, 0, time.UTC), "2024-02-03"}, // midnight there
	}
	for _, tt := range tests {
		got, err := newParamConn(tt.loc).appendParams(nil, &Stmt{nParams: 1}, []any{tt.arg})
		if err != nil {
			t.Fatal(err)
		}
		if want := cat([]byte{0, 1, typeString, 0}, lstr(tt.want)); !bytes.Equal(got, want) {
			t.Errorf("loc %v: % x, want % x", tt.loc, got, want)
		}
	}
}

// TestAppendParamsTypeCache checks that types are sent with
// new-params-bound = 1 on the first execution and whenever any (type, flag)
// pair changes, and that an execution with the same types as the previous
// one sends new-params-bound = 0 and no type bytes.
func TestAppendParamsTypeCache(t *testing.T) {
	c := newParamConn(nil)
	s := &Stmt{nParams: 2}
	steps := []struct {
		args []any
		want []byte
	}{
		{[]any{int64(1), "a"}, cat([]byte{0, 1, 8, 0, 0xfe, 0}, i64(1), lstr("a"))},
		{[]any{int64(2), "bb"}, cat([]byte{0, 0}, i64(2), lstr("bb"))},
		{[]any{3, "c"}, cat([]byte{0, 0}, i64(3), lstr("c"))}, // int is LONGLONG too
		{[]any{nil, "d"}, cat([]byte{1, 1, 6, 0, 0xfe, 0}, lstr("d"))},
		{[]any{nil, "e"}, cat([]byte{1, 0}, lstr("e"))},
		{[]any{int64(5), "f"}, cat([]byte{0, 1, 8, 0, 0xfe, 0}, i64(5), lstr("f"))},
		{[]any{uint64(5), "f"}, cat([]byte{0, 1, 8, 0x80, 0xfe, 0}, le64(5), lstr("f"))},
		{[]any{uint64(6), []byte("g")}, cat([]byte{0, 0}, le64(6), lstr("g"))}, // []byte is STRING too
		{[]any{uint64(6), nil}, cat([]byte{2, 1, 8, 0x80, 6, 0}, le64(6))},
	}
	for i, st := range steps {
		got, err := c.appendParams([]byte{0x17}, s, st.args)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if want := append([]byte{0x17}, st.want...); !bytes.Equal(got, want) {
			t.Fatalf("step %d %v:\n% x\nwant\n% x", i, st.args, got, want)
		}
	}
}

// TestAppendParamsErrorKeepsTypes checks that a failed encoding neither
// marks the types as sent nor replaces the remembered ones: the next
// successful execution still binds types.
func TestAppendParamsErrorKeepsTypes(t *testing.T) {
	c := newParamConn(nil)
	s := &Stmt{nParams: 1}
	if _, err := c.appendParams(nil, s, []any{struct{}{}}); err == nil {
		t.Fatal("struct argument: no error")
	}
	if s.typesSent || len(s.types) != 0 {
		t.Fatalf("after error: typesSent %v types % x", s.typesSent, s.types)
	}
	got, err := c.appendParams(nil, s, []any{int64(1)})
	if err != nil {
		t.Fatal(err)
	}
	if want := cat([]byte{0, 1, 8, 0}, i64(1)); !bytes.Equal(got, want) {
		t.Fatalf("% x, want % x", got, want)
	}
	if _, err := c.appendParams(nil, s, []any{make(chan int)}); err == nil {
		t.Fatal("chan argument: no error")
	}
	got, err = c.appendParams(nil, s, []any{int64(2)})
	if err != nil {
		t.Fatal(err)
	}
	if want := cat([]byte{0, 0}, i64(2)); !bytes.Equal(got, want) {
		t.Fatalf("after a failed execution with the same cached types: % x, want % x", got, want)
	}
}

// textArg is a driver.Valuer and encoding.TextAppender, like target.Cents.
type textArg struct {
	s     string
	err   error
	calls *int // Value calls
}

func (a textArg) Value() (driver.Value, error) {
	if a.calls != nil {
		*a.calls++
	}
	return a.s, a.err
}

func (a textArg) AppendText(b []byte) ([]byte, error) {
	if a.err != nil {
		return append(b, "partial"...), a.err
	}
	return append(b, a.s...), nil
}

// TestAppendParamsTextAppender checks that a Valuer that is also a
// TextAppender is sent as a STRING with its text, without calling Value,
// for lengths on both sides of every length-encoding boundary (the header
// grows from 1 to 3, 4 and 9 bytes and the text is moved), with the
// neighbouring values intact.
func TestAppendParamsTextAppender(t *testing.T) {
	for _, n := range []int{0, 1, 250, 251, 252, 0xffff, 0x10000, 0xffffff, 0x1000000} {
		text := string(repeatPattern(n))
		calls := 0
		c := newParamConn(nil)
		got, err := c.appendParams([]byte{0x17}, &Stmt{nParams: 3}, []any{int64(9), textArg{s: text, calls: &calls}, "z"})
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		want := cat([]byte{0x17, 0, 1, 8, 0, 0xfe, 0, 0xfe, 0}, i64(9), lstr(text), lstr("z"))
		if !bytes.Equal(got, want) {
			t.Fatalf("n=%d: encoding differs (len %d, want %d)", n, len(got), len(want))
		}
		if calls != 0 {
			t.Errorf("n=%d: Value called %d times, want 0 (AppendText path)", n, calls)
		}
	}
}

// TestAppendParamsTextAppenderError checks that an AppendText error is
// returned, wrapped with the argument's position.
func TestAppendParamsTextAppenderError(t *testing.T) {
	errText := errors.New("no text")
	c := newParamConn(nil)
	_, err := c.appendParams(nil, &Stmt{nParams: 2}, []any{int64(1), textArg{err: errText}})
	if !errors.Is(err, errText) || !strings.HasPrefix(err.Error(), "argument 2: ") {
		t.Fatalf("err = %v, want argument 2 wrapping %v", err, errText)
	}
}

type (
	myInt    int
	myString string
	myUint32 uint32
	myBytes  []byte
	myBool   bool
	myFloat  float64
)

// valuer is a driver.Valuer with a value receiver (like sql.NullInt64).
type valuer struct {
	v   driver.Value
	err error
}

func (v valuer) Value() (driver.Value, error) { return v.v, v.err }

// TestAppendParamsConversion checks arguments outside the fast set: named
// types and pointers are converted as database/sql's default converter
// does, driver.Valuers are called, and the result is encoded once more.
func TestAppendParamsConversion(t *testing.T) {
	i := int64(42)
	ts := time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC)
	tests := []struct {
		name string
		arg  any
		want []byte // bitmap, bound, type, flag, value
	}{
		{"named int", myInt(-5), cat([]byte{0, 1, 8, 0}, i64(-5))},
		{"named string", myString("x"), []byte{0, 1, 0xfe, 0, 1, 'x'}},
		{"named uint32", myUint32(5), cat([]byte{0, 1, 8, 0}, i64(5))},
		{"named []byte", myBytes{1, 2}, []byte{0, 1, 0xfe, 0, 2, 1, 2}},
		{"json.RawMessage", json.RawMessage(`{}`), []byte{0, 1, 0xfe, 0, 2, '{', '}'}},
		{"named bool", myBool(true), []byte{0, 1, 1, 0, 1}},
		{"named float", myFloat(2.5), cat([]byte{0, 1, 5, 0}, f64(2.5))},
		{"pointer", &i, cat([]byte{0, 1, 8, 0}, i64(42))},
		{"nil pointer", (*int64)(nil), []byte{1, 1, 6, 0}},
		{"valuer int64", valuer{v: int64(3)}, cat([]byte{0, 1, 8, 0}, i64(3))},
		{"valuer string", valuer{v: "s"}, []byte{0, 1, 0xfe, 0, 1, 's'}},
		{"valuer nil", valuer{}, []byte{1, 1, 6, 0}},
		{"valuer time", valuer{v: ts}, cat([]byte{0, 1, 0xfe, 0}, lstr("2023-12-31 23:59:59"))},
		{"valuer pointer", &valuer{v: int64(4)}, cat([]byte{0, 1, 8, 0}, i64(4))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := newParamConn(nil).appendParams(nil, &Stmt{nParams: 1}, []any{tt.arg})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tt.want) {
				t.Fatalf("% x, want % x", got, tt.want)
			}
		})
	}
}

// TestAppendParamsUnsupported checks that arguments that cannot be encoded
// return an error naming the argument, instead of sending anything.
func TestAppendParamsUnsupported(t *testing.T) {
	errV := errors.New("valuer failed")
	tests := []struct {
		name    string
		arg     any
		wantMsg string
		wantIs  error
	}{
		{"struct", struct{ A int }{1}, "argument 1: unsupported type struct { A int }, a struct", nil},
		{"slice of int", []int{1}, "argument 1: unsupported type []int, a slice of int", nil},
		{"chan", make(chan int), "argument 1: unsupported type chan int, a chan", nil},
		{"valuer error", valuer{err: errV}, "argument 1: valuer failed", errV},
		{"valuer returns a struct", valuer{v: struct{}{}}, "argument 1: unsupported type struct {}", nil},
		{"valuer returns a named int", valuer{v: myInt(1)}, "argument 1: unsupported type mywire.myInt", nil},
		{"year 10000", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), "argument 1: year is not in the range [1, 9999]: 10000", nil},
		{"year 0", time.Date(0, 1, 1, 0, 0, 0, 1, time.UTC), "argument 1: year is not in the range [1, 9999]: 0", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newParamConn(nil).appendParams(nil, &Stmt{nParams: 1}, []any{tt.arg})
			if err == nil || err.Error() != tt.wantMsg {
				t.Fatalf("err = %v, want %q", err, tt.wantMsg)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Fatalf("err = %v does not wrap %v", err, tt.wantIs)
			}
		})
	}
}

// TestAppendDateTime checks go-sql-driver's text form of time.Time: the
// date alone at midnight, seconds otherwise, the fraction with trailing
// zeros trimmed, years 1-9999 zero-padded, others an error.
func TestAppendDateTime(t *testing.T) {
	tests := []struct {
		t       time.Time
		want    string
		wantErr string
	}{
		{time.Date(2024, 2, 3, 0, 0, 0, 0, time.UTC), "2024-02-03", ""},
		{time.Date(2024, 2, 3, 4, 5, 6, 0, time.UTC), "2024-02-03 04:05:06", ""},
		{time.Date(2024, 12, 31, 23, 59, 59, 123_000_000, time.UTC), "2024-12-31 23:59:59.123", ""},
		{time.Date(2024, 2, 3, 4, 5, 6, 120_000, time.UTC), "2024-02-03 04:05:06.00012", ""},
		{time.Date(2024, 2, 3, 4, 5, 6, 1, time.UTC), "2024-02-03 04:05:06.000000001", ""},
		{time.Date(2024, 2, 3, 4, 5, 6, 999_999_999, time.UTC), "2024-02-03 04:05:06.999999999", ""},
		{time.Date(2024, 2, 3, 0, 0, 0, 500_000_000, time.UTC), "2024-02-03 00:00:00.5", ""},
		{time.Date(2024, 2, 3, 0, 0, 1, 0, time.UTC), "2024-02-03 00:00:01", ""},
		{time.Date(2024, 2, 3, 0, 1, 0, 0, time.UTC), "2024-02-03 00:01:00", ""},
		{time.Date(2024, 2, 3, 1, 0, 0, 0, time.UTC), "2024-02-03 01:00:00", ""},
		{time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), "0001-01-01", ""},
		{time.Date(999, 9, 9, 9, 9, 9, 0, time.UTC), "0999-09-09 09:09:09", ""},
		{time.Date(9999, 12, 31, 23, 59, 59, 999_999_000, time.UTC), "9999-12-31 23:59:59.999999", ""},
		{time.Date(2024, 2, 3, 4, 5, 6, 0, plus2), "2024-02-03 04:05:06", ""}, // no conversion here
		{time.Date(0, 12, 31, 0, 0, 0, 0, time.UTC), "", "year is not in the range [1, 9999]: 0"},
		{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), "", "year is not in the range [1, 9999]: 10000"},
	}
	for _, tt := range tests {
		got, err := appendDateTime([]byte("x"), tt.t)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("appendDateTime(%v): err %v, want %q", tt.t, err, tt.wantErr)
			}
			continue
		}
		if err != nil || string(got) != "x"+tt.want {
			t.Errorf("appendDateTime(%v) = %q, %v; want %q", tt.t, got, err, "x"+tt.want)
		}
	}
}
