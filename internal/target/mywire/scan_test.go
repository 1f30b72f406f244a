package mywire

import (
	"database/sql"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

func vInt(i int64) value     { return value{kind: kindInt, i: i} }
func vUint(u uint64) value   { return value{kind: kindUint, u: u} }
func vFloat(f float64) value { return value{kind: kindFloat, f: f} }
func vBytes(s string) value  { return value{kind: kindBytes, bytes: []byte(s)} }
func vNull() value           { return value{kind: kindNull} }

var (
	colLongLong = &column{typ: typeLongLong}
	colULong    = &column{typ: typeLongLong, unsigned: true}
	colDouble   = &column{typ: typeDouble}
	colFloat    = &column{typ: typeFloat}
	colString   = &column{typ: typeVarString}
)

// srcRecorder is an sql.Scanner that records what it was given.
type srcRecorder struct{ src any }

func (r *srcRecorder) Scan(src any) error {
	if b, ok := src.([]byte); ok {
		src = "[]byte:" + string(b)
	}
	r.src = src
	return nil
}

// textRecorder is an sql.Scanner and encoding.TextUnmarshaler (like
// target.Cents): it records which method was called with what.
type textRecorder struct{ calls []string }

func (r *textRecorder) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		r.calls = append(r.calls, "Scan(nil)")
	case []byte:
		r.calls = append(r.calls, "Scan([]byte "+string(v)+")")
	default:
		r.calls = append(r.calls, "Scan("+reflect.TypeOf(src).String()+")")
	}
	return nil
}

func (r *textRecorder) UnmarshalText(b []byte) error {
	r.calls = append(r.calls, "UnmarshalText("+string(b)+")")
	return nil
}

// TestAssign checks every destination type assign documents against every
// value kind it can receive: the stored value exactly, or the error
// (exact message, or errNull for NULL into a non-nullable destination).
func TestAssign(t *testing.T) {
	loc := time.FixedZone("UTC+3", 3*3600)
	tests := []struct {
		name    string
		dest    func() any
		v       value
		col     *column
		want    any // *dest after the call
		wantErr string
	}{
		// *int64
		{"int64 from int", func() any { return new(int64) }, vInt(-42), colLongLong, int64(-42), ""},
		{"int64 from bytes", func() any { return new(int64) }, vBytes("-7"), colString, int64(-7), ""},
		{"int64 from integral float", func() any { return new(int64) }, vFloat(3), colDouble, int64(3), ""},
		{"int64 from float", func() any { return new(int64) }, vFloat(3.5), colDouble, int64(0), "value 3.5 is not an integer"},
		{"int64 from huge float", func() any { return new(int64) }, vFloat(1e19), colDouble, int64(0), "value 1e+19 is not an integer"},
		{"int64 from big unsigned", func() any { return new(int64) }, vUint(1 << 63), colULong, int64(0), "value 9223372036854775808 out of range for int64"},
		{"int64 from abc", func() any { return new(int64) }, vBytes("abc"), colString, int64(0), `strconv.ParseInt: parsing "abc": invalid syntax`},
		{"int64 from NULL", func() any { return new(int64) }, vNull(), colLongLong, int64(0), "NULL"},
		// *int
		{"int from int", func() any { return new(int) }, vInt(math.MinInt64), colLongLong, math.MinInt, ""},
		{"int from bytes", func() any { return new(int) }, vBytes("12"), colString, 12, ""},
		{"int from integral float", func() any { return new(int) }, vFloat(-8), colDouble, -8, ""},
		{"int from big unsigned", func() any { return new(int) }, vUint(math.MaxUint64), colULong, 0, "value 18446744073709551615 out of range for int64"},
		{"int from NULL", func() any { return new(int) }, vNull(), colLongLong, 0, "NULL"},
		// *int32
		{"int32 max", func() any { return new(int32) }, vInt(math.MaxInt32), colLongLong, int32(math.MaxInt32), ""},
		{"int32 min", func() any { return new(int32) }, vInt(math.MinInt32), colLongLong, int32(math.MinInt32), ""},
		{"int32 overflow", func() any { return new(int32) }, vInt(math.MaxInt32 + 1), colLongLong, int32(math.MinInt32), "value 2147483648 out of range for int32"},
		{"int32 underflow", func() any { return new(int32) }, vInt(math.MinInt32 - 1), colLongLong, int32(math.MaxInt32), "value -2147483649 out of range for int32"},
		{"int32 from bytes", func() any { return new(int32) }, vBytes("77"), colString, int32(77), ""},
		{"int32 from float", func() any { return new(int32) }, vFloat(0.5), colDouble, int32(0), "value 0.5 is not an integer"},
		{"int32 from big unsigned", func() any { return new(int32) }, vUint(1 << 63), colULong, int32(0), "value 9223372036854775808 out of range for int64"},
		{"int32 from NULL", func() any { return new(int32) }, vNull(), colLongLong, int32(0), "NULL"},
		// *uint64
		{"uint64 from big unsigned", func() any { return new(uint64) }, vUint(math.MaxUint64), colULong, uint64(math.MaxUint64), ""},
		{"uint64 from int", func() any { return new(uint64) }, vInt(5), colLongLong, uint64(5), ""},
		{"uint64 from negative", func() any { return new(uint64) }, vInt(-1), colLongLong, uint64(0), "value -1 out of range for uint64"},
		{"uint64 from bytes", func() any { return new(uint64) }, vBytes("18446744073709551615"), colString, uint64(math.MaxUint64), ""},
		{"uint64 from bad bytes", func() any { return new(uint64) }, vBytes("-1"), colString, uint64(0), `strconv.ParseUint: parsing "-1": invalid syntax`},
		{"uint64 from float", func() any { return new(uint64) }, vFloat(1), colDouble, uint64(0), "cannot convert floating-point value to uint64"},
		{"uint64 from NULL", func() any { return new(uint64) }, vNull(), colULong, uint64(0), "NULL"},
		// *float64
		{"float64 from float", func() any { return new(float64) }, vFloat(1.5), colDouble, 1.5, ""},
		{"float64 from int", func() any { return new(float64) }, vInt(-2), colLongLong, -2.0, ""},
		{"float64 from big unsigned", func() any { return new(float64) }, vUint(math.MaxUint64), colULong, 18446744073709551615.0, ""},
		{"float64 from bytes", func() any { return new(float64) }, vBytes("2.25"), colString, 2.25, ""},
		{"float64 from bad bytes", func() any { return new(float64) }, vBytes("x"), colString, 0.0, `strconv.ParseFloat: parsing "x": invalid syntax`},
		{"float64 from NULL", func() any { return new(float64) }, vNull(), colDouble, 0.0, "NULL"},
		// *string
		{"string from bytes", func() any { return new(string) }, vBytes("héllo"), colString, "héllo", ""},
		{"string from empty", func() any { return new(string) }, vBytes(""), colString, "", ""},
		{"string from int", func() any { return new(string) }, vInt(-3), colLongLong, "-3", ""},
		{"string from big unsigned", func() any { return new(string) }, vUint(math.MaxUint64), colULong, "18446744073709551615", ""},
		{"string from DOUBLE", func() any { return new(string) }, vFloat(0.1), colDouble, "0.1", ""},
		{"string from DOUBLE 1e-7", func() any { return new(string) }, vFloat(1e-7), colDouble, "1e-07", ""},
		{"string from FLOAT", func() any { return new(string) }, vFloat(float64(float32(0.1))), colFloat, "0.1", ""},
		{"string from FLOAT 3.14", func() any { return new(string) }, vFloat(float64(float32(3.14))), colFloat, "3.14", ""},
		{"string from FLOAT max", func() any { return new(string) }, vFloat(float64(float32(math.MaxFloat32))), colFloat, "3.4028235e+38", ""},
		{"string from NULL", func() any { return new(string) }, vNull(), colString, "", "NULL"},
		// *[]byte
		{"bytes from bytes", func() any { return new([]byte) }, vBytes("ab"), colString, []byte("ab"), ""},
		{"bytes from empty", func() any { return new([]byte) }, vBytes(""), colString, []byte{}, ""},
		{"bytes from int", func() any { return new([]byte) }, vInt(7), colLongLong, []byte("7"), ""},
		{"bytes from FLOAT", func() any { return new([]byte) }, vFloat(float64(float32(2.5))), colFloat, []byte("2.5"), ""},
		{"bytes from big unsigned", func() any { return new([]byte) }, vUint(1 << 63), colULong, []byte("9223372036854775808"), ""},
		{"bytes from NULL", func() any { b := []byte("old"); return &b }, vNull(), colString, []byte(nil), ""},
		// *sql.RawBytes
		{"raw from bytes", func() any { return new(sql.RawBytes) }, vBytes("xyz"), colString, sql.RawBytes("xyz"), ""},
		{"raw from int", func() any { return new(sql.RawBytes) }, vInt(42), colLongLong, sql.RawBytes("42"), ""},
		{"raw from big unsigned", func() any { return new(sql.RawBytes) }, vUint(math.MaxUint64), colULong, sql.RawBytes("18446744073709551615"), ""},
		{"raw from FLOAT", func() any { return new(sql.RawBytes) }, vFloat(float64(float32(0.1))), colFloat, sql.RawBytes("0.1"), ""},
		{"raw from DOUBLE", func() any { return new(sql.RawBytes) }, vFloat(0.1), colDouble, sql.RawBytes("0.1"), ""},
		{"raw from NULL", func() any { b := sql.RawBytes("old"); return &b }, vNull(), colString, sql.RawBytes(nil), ""},
		// *bool
		{"bool from 1", func() any { return new(bool) }, vInt(1), colLongLong, true, ""},
		{"bool from 0", func() any { b := true; return &b }, vInt(0), colLongLong, false, ""},
		{"bool from 3", func() any { return new(bool) }, vInt(3), colLongLong, false, "value 3 is not a boolean"},
		{"bool from true", func() any { return new(bool) }, vBytes("true"), colString, true, ""},
		{"bool from bytes 1", func() any { return new(bool) }, vBytes("1"), colString, true, ""},
		{"bool from bytes x", func() any { return new(bool) }, vBytes("x"), colString, false, `strconv.ParseBool: parsing "x": invalid syntax`},
		{"bool from float", func() any { return new(bool) }, vFloat(1), colDouble, false, "cannot convert floating-point value to bool"},
		{"bool from big unsigned", func() any { return new(bool) }, vUint(1 << 63), colULong, false, "cannot convert integer value to bool"},
		{"bool from NULL", func() any { return new(bool) }, vNull(), colLongLong, false, "NULL"},
		// *time.Time (in the Conn's location)
		{"time from DATETIME(6)", func() any { return new(time.Time) }, vBytes("2024-02-03 04:05:06.123456"), colString, time.Date(2024, 2, 3, 4, 5, 6, 123456000, loc), ""},
		{"time from DATETIME", func() any { return new(time.Time) }, vBytes("2024-02-03 04:05:06"), colString, time.Date(2024, 2, 3, 4, 5, 6, 0, loc), ""},
		{"time from DATE", func() any { return new(time.Time) }, vBytes("2024-02-03"), colString, time.Date(2024, 2, 3, 0, 0, 0, 0, loc), ""},
		{"time from zero DATETIME", func() any { return new(time.Time) }, vBytes("0000-00-00 00:00:00"), colString, time.Time{}, ""},
		{"time from zero DATE", func() any { return new(time.Time) }, vBytes("0000-00-00"), colString, time.Time{}, ""},
		{"time from short text", func() any { return new(time.Time) }, vBytes("2024-02-03 04:05"), colString, time.Time{}, `invalid time value "2024-02-03 04:05"`},
		{"time from bad text", func() any { return new(time.Time) }, vBytes("2024-13-03 04:05:06"), colString, time.Time{}, `invalid time value "2024-13-03 04:05:06"`},
		{"time from int", func() any { return new(time.Time) }, vInt(1), colLongLong, time.Time{}, "cannot convert integer value to time.Time"},
		{"time from float", func() any { return new(time.Time) }, vFloat(1), colDouble, time.Time{}, "cannot convert floating-point value to time.Time"},
		{"time from big unsigned", func() any { return new(time.Time) }, vUint(1 << 63), colULong, time.Time{}, "cannot convert integer value to time.Time"},
		{"time from NULL", func() any { return new(time.Time) }, vNull(), colString, time.Time{}, "NULL"},
		// *any
		{"any from NULL", func() any { var x any = "old"; return &x }, vNull(), colString, nil, ""},
		{"any from int", func() any { return new(any) }, vInt(5), colLongLong, int64(5), ""},
		{"any from float", func() any { return new(any) }, vFloat(0.25), colDouble, 0.25, ""},
		{"any from bytes", func() any { return new(any) }, vBytes("ab"), colString, []byte("ab"), ""},
		// sql.Scanner (big unsigned and FLOAT values: TestBugScannerValues)
		{"NullInt64 from int", func() any { return new(sql.NullInt64) }, vInt(5), colLongLong, sql.NullInt64{Int64: 5, Valid: true}, ""},
		{"NullInt64 from NULL", func() any { return &sql.NullInt64{Int64: 9, Valid: true} }, vNull(), colLongLong, sql.NullInt64{}, ""},
		{"NullString from bytes", func() any { return new(sql.NullString) }, vBytes("x"), colString, sql.NullString{String: "x", Valid: true}, ""},
		{"NullString from big unsigned", func() any { return new(sql.NullString) }, vUint(math.MaxUint64), colULong, sql.NullString{String: "18446744073709551615", Valid: true}, ""},
		{"NullFloat64 from float", func() any { return new(sql.NullFloat64) }, vFloat(1.25), colDouble, sql.NullFloat64{Float64: 1.25, Valid: true}, ""},
		{"scanner gets int64", func() any { return new(srcRecorder) }, vInt(-1), colLongLong, srcRecorder{src: int64(-1)}, ""},
		{"scanner gets float64", func() any { return new(srcRecorder) }, vFloat(2), colDouble, srcRecorder{src: 2.0}, ""},
		{"scanner gets []byte", func() any { return new(srcRecorder) }, vBytes("b"), colString, srcRecorder{src: "[]byte:b"}, ""},
		{"scanner gets nil", func() any { return &srcRecorder{src: 1} }, vNull(), colString, srcRecorder{}, ""},
		// sql.Scanner + encoding.TextUnmarshaler: text goes to UnmarshalText
		{"text scanner from bytes", func() any { return new(textRecorder) }, vBytes("12.34"), colString, textRecorder{calls: []string{"UnmarshalText(12.34)"}}, ""},
		{"text scanner from int", func() any { return new(textRecorder) }, vInt(3), colLongLong, textRecorder{calls: []string{"Scan(int64)"}}, ""},
		{"text scanner from float", func() any { return new(textRecorder) }, vFloat(3), colDouble, textRecorder{calls: []string{"Scan(float64)"}}, ""},
		{"text scanner from NULL", func() any { return new(textRecorder) }, vNull(), colString, textRecorder{calls: []string{"Scan(nil)"}}, ""},
		// unsupported
		{"float32 destination", func() any { return new(float32) }, vFloat(1), colFloat, float32(0), "unsupported Scan destination *float32"},
		{"non-pointer destination", func() any { return int64(0) }, vInt(1), colLongLong, nil, "unsupported Scan destination int64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(nil, Caps{}, loc)
			dest := tt.dest()
			v := tt.v
			err := c.assign(dest, &v, tt.col)
			switch {
			case tt.wantErr == "NULL":
				if !errors.Is(err, errNull) {
					t.Fatalf("err = %v, want %v", err, errNull)
				}
			case tt.wantErr != "":
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
			case err != nil:
				t.Fatalf("unexpected error %v", err)
			}
			rv := reflect.ValueOf(dest)
			if rv.Kind() != reflect.Pointer {
				return
			}
			got := rv.Elem().Interface()
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("dest = %#v (%T), want %#v (%T)", got, got, tt.want, tt.want)
			}
			if gt, ok := got.(time.Time); ok && !gt.IsZero() && gt.Location() != loc {
				t.Fatalf("time location %v, want %v", gt.Location(), loc)
			}
		})
	}
}

// TestAssignCopies checks that *[]byte, *string and *any receive copies
// (the row buffer is reused by the next read) while *sql.RawBytes reuses
// the destination's own backing array.
func TestAssignCopies(t *testing.T) {
	c := New(nil, Caps{}, nil)
	row := []byte("payload")
	v := value{kind: kindBytes, bytes: row}

	var b []byte
	var s string
	var a any
	for _, d := range []any{&b, &s, &a} {
		if err := c.assign(d, &v, colString); err != nil {
			t.Fatal(err)
		}
	}
	copy(row, "XXXXXXX")
	if string(b) != "payload" || s != "payload" || string(a.([]byte)) != "payload" {
		t.Fatalf("values alias the row: []byte %q string %q any %q", b, s, a)
	}

	buf := make(sql.RawBytes, 0, 16)
	raw := buf
	v.bytes = []byte("abc")
	if err := c.assign(&raw, &v, colString); err != nil {
		t.Fatal(err)
	}
	if string(raw) != "abc" || &raw[0] != &buf[:1][0] {
		t.Fatalf("RawBytes %q not stored in its own buffer", raw)
	}
	v.bytes = []byte("defgh")
	if err := c.assign(&raw, &v, colString); err != nil {
		t.Fatal(err)
	}
	if string(raw) != "defgh" || &raw[0] != &buf[:1][0] {
		t.Fatalf("RawBytes %q not reused", raw)
	}
}

// TestDecode checks the binary protocol value decoding of every column
// type: the value, its kind, signedness from the column's UNSIGNED flag,
// the number of bytes consumed (trailing bytes of the next column are left),
// and an error for every truncated input.
func TestDecode(t *testing.T) {
	long251 := strings.Repeat("q", 251)
	tests := []struct {
		name string
		col  column
		p    []byte
		want value
		n    int
	}{
		{"TINY signed", column{typ: typeTiny}, []byte{0xff}, vInt(-1), 1},
		{"TINY unsigned", column{typ: typeTiny, unsigned: true}, []byte{0xff}, vInt(255), 1},
		{"SHORT signed", column{typ: typeShort}, le16(0x8000), vInt(-32768), 2},
		{"SHORT unsigned", column{typ: typeShort, unsigned: true}, le16(0xffff), vInt(65535), 2},
		{"YEAR", column{typ: typeYear, unsigned: true}, le16(2024), vInt(2024), 2},
		{"INT24 signed", column{typ: typeInt24}, le32(0xfff85ee0), vInt(-500000), 4},
		{"LONG signed", column{typ: typeLong}, le32(0x80000000), vInt(math.MinInt32), 4},
		{"LONG unsigned", column{typ: typeLong, unsigned: true}, le32(0xffffffff), vInt(math.MaxUint32), 4},
		{"LONGLONG signed", column{typ: typeLongLong}, le64(math.MaxUint64), vInt(-1), 8},
		{"LONGLONG unsigned small", column{typ: typeLongLong, unsigned: true}, le64(math.MaxInt64), vInt(math.MaxInt64), 8},
		{"LONGLONG unsigned big", column{typ: typeLongLong, unsigned: true}, le64(math.MaxUint64), vUint(math.MaxUint64), 8},
		{"FLOAT", column{typ: typeFloat}, f32(3.14), vFloat(float64(float32(3.14))), 4},
		{"DOUBLE", column{typ: typeDouble}, f64(-2.5e-300), vFloat(-2.5e-300), 8},
		{"DATE", column{typ: typeDate}, cat([]byte{4}, binDate(4, 2024, 2, 3, 0, 0, 0, 0)), vBytes("2024-02-03"), 5},
		{"DATE zero", column{typ: typeDate}, []byte{0}, vBytes("0000-00-00"), 1},
		{"DATETIME(6)", column{typ: typeDateTime, decimals: 6}, cat([]byte{11}, binDate(11, 2024, 2, 3, 4, 5, 6, 7)), vBytes("2024-02-03 04:05:06.000007"), 12},
		{"TIMESTAMP", column{typ: typeTimestamp}, cat([]byte{7}, binDate(7, 2024, 2, 3, 4, 5, 6, 0)), vBytes("2024-02-03 04:05:06"), 8},
		{"TIME(3)", column{typ: typeTime, decimals: 3}, cat([]byte{12}, binTime(12, true, 1, 1, 2, 3, 450000)), vBytes("-25:02:03.450"), 13},
		{"TIME zero", column{typ: typeTime}, []byte{0}, vBytes("00:00:00"), 1},
		{"VARCHAR", column{typ: typeVarString}, lstr("héllo"), vBytes("héllo"), 7},
		{"VARCHAR empty", column{typ: typeVarString}, lstr(""), vBytes(""), 1},
		{"STRING 251", column{typ: typeString}, lstr(long251), vBytes(long251), 254},
		{"NEWDECIMAL", column{typ: typeNewDecimal, decimals: 2}, lstr("-12.50"), vBytes("-12.50"), 7},
		{"BLOB", column{typ: typeBlob}, lstr("\x00\xff"), vBytes("\x00\xff"), 3},
		{"BIT", column{typ: typeBit, unsigned: true}, lstr("\xa5"), vBytes("\xa5"), 2},
		{"JSON", column{typ: typeJSON}, lstr(`{"a":1}`), vBytes(`{"a":1}`), 8},
		{"ENUM", column{typ: typeEnum}, lstr("b"), vBytes("b"), 2},
		{"GEOMETRY", column{typ: typeGeometry}, lstr("gg"), vBytes("gg"), 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(nil, Caps{}, nil)
			var v value
			n, err := c.decode(append(append([]byte(nil), tt.p...), 0xee, 0xee), &tt.col, &v)
			if err != nil {
				t.Fatal(err)
			}
			if n != tt.n || v.kind != tt.want.kind || v.i != tt.want.i || v.u != tt.want.u ||
				v.f != tt.want.f || string(v.bytes) != string(tt.want.bytes) {
				t.Fatalf("decode = %d, %+v (bytes %q); want %d, %+v (bytes %q)", n, v, v.bytes, tt.n, tt.want, tt.want.bytes)
			}
			for k := 0; k < len(tt.p); k++ {
				var v value
				if _, err := c.decode(tt.p[:k], &tt.col, &v); err == nil {
					t.Fatalf("decode of %d of %d bytes: no error", k, len(tt.p))
				}
			}
		})
	}
}
