package target

import (
	"database/sql"
	"encoding/binary"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

func TestPGFastEncode(t *testing.T) {
	loc := time.FixedZone("x", -(3*3600 + 30*60 + 15))
	tests := []struct {
		name string
		oids []uint32
		args []any
		want []string // "<nil>" for NULL
		ok   bool
	}{
		{"ints", []uint32{pgtype.Int4OID, pgtype.Int8OID, pgtype.Int2OID, pgtype.Int8OID, pgtype.Int8OID},
			[]any{1, int64(-9223372036854775808), int16(-3), int32(7), uint32(4294967295)},
			[]string{"1", "-9223372036854775808", "-3", "7", "4294967295"}, true},
		{"pointers", []uint32{pgtype.Int4OID, pgtype.Int8OID},
			[]any{new(int64(100_000)), (*int64)(nil)}, []string{"100000", "<nil>"}, true},
		{"floats", []uint32{pgtype.Float8OID, pgtype.NumericOID, pgtype.Float4OID},
			[]any{0.1, 1e21, float32(2.5)}, []string{"0.1", "1e+21", "2.5"}, true},
		{"text, bool, NULL", []uint32{pgtype.TextOID, pgtype.BoolOID, pgtype.Int4OID, pgtype.VarcharOID},
			[]any{"a'b", true, nil, ""}, []string{"a'b", "t", "<nil>", ""}, true},
		{"money", []uint32{pgtype.NumericOID, pgtype.NumericOID},
			[]any{Cents(-1005), Decimal4(500)}, []string{"-10.05", "0.0500"}, true},
		{"time", []uint32{pgtype.TimestamptzOID, pgtype.TimestampOID},
			[]any{time.Date(2026, 11, 23, 16, 5, 4, 123456789, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, loc)},
			[]string{"2026-11-23 16:05:04.123456+00:00:00", "0001-01-01 00:00:00.000000-03:30:15"}, true},
		{"pointers to string and time", []uint32{pgtype.TextOID, pgtype.TimestamptzOID, pgtype.VarcharOID, pgtype.TimestampOID},
			[]any{new("a b"), new(time.Date(2026, 11, 27, 1, 2, 3, 0, time.UTC)), (*string)(nil), (*time.Time)(nil)},
			[]string{"a b", "2026-11-27 01:02:03.000000+00:00:00", "<nil>", "<nil>"}, true},
		{"TextBuf and *Cents", []uint32{pgtype.BPCharOID, pgtype.TextOID, pgtype.NumericOID},
			[]any{textBuf("dist-info"), textBuf(""), new(Cents(-5))}, []string{"dist-info", "", "-0.05"}, true},
		{"nil *TextBuf (pgx)", []uint32{pgtype.TextOID}, []any{(*TextBuf)(nil)}, nil, false},
		{"*time.Time into text", []uint32{pgtype.TextOID}, []any{new(time.Now())}, nil, false},
		{"bytea parameter", []uint32{pgtype.ByteaOID}, []any{"x"}, nil, false},
		{"[]byte argument", []uint32{pgtype.TextOID}, []any{[]byte("x")}, nil, false},
		{"NaN", []uint32{pgtype.Float8OID}, []any{math.NaN()}, nil, false},
		{"Inf", []uint32{pgtype.Float8OID}, []any{math.Inf(1)}, nil, false},
		{"time into text", []uint32{pgtype.TextOID}, []any{time.Now()}, nil, false},
		{"year 10000", []uint32{pgtype.TimestampOID}, []any{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, nil, false},
		{"money into int", []uint32{pgtype.Int8OID}, []any{Cents(100)}, nil, false},
		{"other type", []uint32{pgtype.Int8OID}, []any{struct{}{}}, nil, false},
		{"count mismatch", []uint32{pgtype.Int8OID}, []any{1, 2}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newPGFast(&pgconn.StatementDescription{ParamOIDs: tt.oids})
			var a pgArgs
			for pass := 0; pass < 2; pass++ { // buffers reused
				if ok := f.encode(&a, tt.args); ok != tt.ok {
					t.Fatalf("encode = %v, want %v", ok, tt.ok)
				}
				if !tt.ok {
					return
				}
				if got := paramStrings(&a); !reflect.DeepEqual(got, tt.want) {
					t.Errorf("pass %d: params %q, want %q", pass, got, tt.want)
				}
			}
		})
	}
}

func TestPGFastScanValue(t *testing.T) {
	tm := pgtype.NewMap()
	be := func(n int, v uint64) []byte {
		b := make([]byte, 8)
		binary.BigEndian.PutUint64(b, v)
		return b[8-n:]
	}
	var (
		i64 int64
		i   int
		i32 int32
		f64 float64
		s   string
		c   Cents
		ni  sql.NullInt64
		tb  TextBuf
	)
	tests := []struct {
		name   string
		oid    uint32
		format int16
		src    []byte
		dst    any
		check  func() bool
		errors bool
	}{
		{"int8 -> int64", pgtype.Int8OID, 1, be(8, uint64(math.MaxUint64)), &i64, func() bool { return i64 == -1 }, false},
		{"int4 -> int", pgtype.Int4OID, 1, be(4, 0xfffffffe), &i, func() bool { return i == -2 }, false},
		{"int2 -> int32", pgtype.Int2OID, 1, be(2, 300), &i32, func() bool { return i32 == 300 }, false},
		{"int8 -> int32 overflow (pgx)", pgtype.Int8OID, 1, be(8, 1<<40), &i32, nil, true},
		{"float8 -> float64", pgtype.Float8OID, 1, be(8, math.Float64bits(0.1)), &f64, func() bool { return f64 == 0.1 }, false},
		{"float4 -> float64", pgtype.Float4OID, 1, be(4, uint64(math.Float32bits(2.5))), &f64, func() bool { return f64 == 2.5 }, false},
		{"int8 -> string (pgx)", pgtype.Int8OID, 1, be(8, 42), &s, func() bool { return s == "42" }, false},
		{"numeric text -> Cents", pgtype.NumericOID, 0, []byte("-12.30"), &c, func() bool { return c == -1230 }, false},
		{"numeric text -> float64", pgtype.NumericOID, 0, []byte("3.25"), &f64, func() bool { return f64 == 3.25 }, false},
		{"numeric text -> int64 (pgx)", pgtype.NumericOID, 0, []byte("123"), &i64, func() bool { return i64 == 123 }, false},
		{"int8 -> Cents (pgx)", pgtype.Int8OID, 1, be(8, 7), &c, func() bool { return c == 700 }, false},
		{"text -> string", pgtype.TextOID, 0, []byte("héllo"), &s, func() bool { return s == "héllo" }, false},
		{"NULL -> int64 (pgx error)", pgtype.Int8OID, 1, nil, &i64, nil, true},
		{"NULL -> sql.NullInt64", pgtype.Int8OID, 1, nil, &ni, func() bool { return !ni.Valid }, false},
		{"int8 -> sql.NullInt64", pgtype.Int8OID, 1, be(8, 9), &ni, func() bool { return ni.Valid && ni.Int64 == 9 }, false},
		{"int2 -> sql.NullInt64", pgtype.Int2OID, 1, be(2, 0xfffe), &ni, func() bool { return ni.Valid && ni.Int64 == -2 }, false},
		{"text -> TextBuf", pgtype.TextOID, 0, []byte("héllo"), &tb, func() bool { return tb.Equal("héllo") }, false},
		{"bpchar -> TextBuf", pgtype.BPCharOID, 0, []byte("abc  "), &tb, func() bool { return tb.Equal("abc  ") }, false},
		{"int8 -> TextBuf (pgx)", pgtype.Int8OID, 1, be(8, 42), &tb, func() bool { return tb.Equal("42") }, false},
		{"NULL -> TextBuf (error)", pgtype.TextOID, 0, nil, &tb, nil, true},
		{"timestamp -> Discard", pgtype.TimestampOID, 1, be(8, 1), &Discard{}, nil, false},
		{"NULL -> Discard", pgtype.TimestampOID, 1, nil, &Discard{}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := scanValue(tm, tt.oid, tt.format, tt.src, tt.dst)
			if (err != nil) != tt.errors {
				t.Fatalf("err = %v, want error %v", err, tt.errors)
			}
			if tt.check != nil && !tt.check() {
				t.Errorf("wrong value: %v", tt.dst)
			}
		})
	}
}

// TestPGFastScanLikePgx: the values the lean path decodes itself come out
// as pgx's type map decodes them, and what it leaves alone (a text column
// into a time.Time, which implements TextUnmarshaler) is pgx's.
func TestPGFastScanLikePgx(t *testing.T) {
	tm := pgtype.NewMap()
	tests := []struct {
		name   string
		oid    uint32
		format int16
		src    []byte
		mk     func() any
	}{
		{"text -> time.Time", pgtype.TextOID, 0, []byte("2026-11-23T10:00:00Z"), func() any { return new(time.Time) }},
		{"numeric text -> Cents", pgtype.NumericOID, 0, []byte("-0.05"), func() any { return new(Cents) }},
		{"numeric text -> Decimal4", pgtype.NumericOID, 0, []byte("0.1234"), func() any { return new(Decimal4) }},
		{"numeric text -> float64", pgtype.NumericOID, 0, []byte("123456789.125"), func() any { return new(float64) }},
		{"bpchar -> string", pgtype.BPCharOID, 0, []byte("ab   "), func() any { return new(string) }},
		{"int2 -> int64", pgtype.Int2OID, 1, []byte{0xff, 0xfe}, func() any { return new(int64) }},
		{"float8 -> float64", pgtype.Float8OID, 1, []byte{0x3f, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a}, func() any { return new(float64) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lean, ref := tt.mk(), tt.mk()
			errLean := scanValue(tm, tt.oid, tt.format, tt.src, lean)
			errRef := tm.Scan(tt.oid, tt.format, tt.src, ref)
			if (errLean == nil) != (errRef == nil) || !reflect.DeepEqual(lean, ref) {
				t.Errorf("lean %v (%v), pgx %v (%v)", lean, errLean, ref, errRef)
			}
		})
	}
}

// TestPGFastArgsShared: one session's statements share the parameter
// buffers; each encode sees only its own values, whatever came before.
func TestPGFastArgsShared(t *testing.T) {
	three := newPGFast(&pgconn.StatementDescription{ParamOIDs: []uint32{pgtype.Int8OID, pgtype.TextOID, pgtype.Int8OID}})
	one := newPGFast(&pgconn.StatementDescription{ParamOIDs: []uint32{pgtype.TextOID}})
	var a pgArgs
	steps := []struct {
		f    *pgFast
		args []any
		want []string
	}{
		{three, []any{1, "a long value that grows the buffer", nil}, []string{"1", "a long value that grows the buffer", "<nil>"}},
		{one, []any{"x"}, []string{"x"}},
		{three, []any{nil, "", 22}, []string{"<nil>", "", "22"}},
	}
	for i, st := range steps {
		if !st.f.encode(&a, st.args) {
			t.Fatalf("step %d: encode refused", i)
		}
		if got := paramStrings(&a); !reflect.DeepEqual(got, st.want) {
			t.Errorf("step %d: params %q, want %q", i, got, st.want)
		}
	}
}

// paramStrings returns the bound parameters as strings, "<nil>" for NULL.
func paramStrings(a *pgArgs) []string {
	out := make([]string, len(a.params))
	for i, p := range a.params {
		out[i] = "<nil>"
		if p != nil {
			out[i] = string(p)
		}
	}
	return out
}

func textBuf(s string) *TextBuf {
	var b TextBuf
	b.SetString(s)
	return &b
}
