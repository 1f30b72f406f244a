package mywire

import (
	"bytes"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// Regression tests for bugs found when the package was first reviewed; each
// failed against the first version of the code.

// TestBugOmittedMetadataWithoutDeprecateEOF: with CacheMetadata but
// without DeprecateEOF, MariaDB still sends the EOF packet that follows the
// column definitions when it omits them (metadata-follows 0; see
// Protocol::send_result_set_metadata, where the EOF is outside the
// send_column_info branch, and go-sql-driver's skipEof in that case).
// execute (stmt.go) skips that EOF only inside readColumns, so Next takes
// it for the end of the result: the rows are lost and their bytes are left
// unread, desynchronising the session.
func TestBugOmittedMetadataWithoutDeprecateEOF(t *testing.T) {
	caps := Caps{CacheMetadata: true, Plain: true}
	cols := []colSpec{{name: "v", typ: typeLongLong}}
	c, _ := startFake(t, caps, func(s *fakeServer) {
		s.expect(queryCmd(comStmtPrepare, "SELECT v FROM t"))
		s.reply(s.prepareOK(1, nil, cols)...)
		s.expect(execCmd(1))
		s.reply(s.resultSet(cols, true, [][]byte{binRow(i64(1))}, 0)...)
		s.expect(execCmd(1))
		s.reply(s.resultSet(cols, false, [][]byte{binRow(i64(2)), binRow(i64(3))}, 0)...)
		s.expect(execCmd(1))
		s.reply(s.resultSet(cols, false, [][]byte{binRow(i64(4))}, 0)...)
		s.expect(queryCmd(comQuery, "COMMIT"))
		s.reply(ok(0, 0))
	})
	st, err := c.Prepare("SELECT v FROM t")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range [][]int64{{1}, {2, 3}} {
		r, err := st.Query(nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for r.Next() {
			var v int64
			if err := r.Scan(&v); err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
		}
		if !reflect.DeepEqual(got, want) || r.Err() != nil {
			t.Fatalf("rows %v, err %v; want %v", got, r.Err(), want)
		}
	}
	if n, err := st.Exec(nil); n != 0 || err != nil {
		t.Fatalf("Exec: %d, %v", n, err)
	}
	if _, err := c.SimpleExec("COMMIT"); err != nil {
		t.Fatalf("next command: %v", err)
	}
}

// TestBugEmptyPacketPanics: a packet with an empty payload where a
// response header is expected makes Prepare, readOK (SimpleExec), execute,
// Rows.Next, skipEOF, dropResultSet and moreResults index p[0] and panic
// (index out of range) instead of returning a protocol error that ends the
// session like every other malformed packet.
func TestBugEmptyPacketPanics(t *testing.T) {
	empty := func(s *fakeServer) { s.replyRaw(s.frames(nil)) }
	tests := []struct {
		name   string
		caps   Caps
		script func(s *fakeServer)
		run    func(t *testing.T, c *Conn) error
	}{
		{"SimpleExec response", capsOK,
			func(s *fakeServer) { s.command(); empty(s) }, simpleErr},
		{"Prepare response", capsOK,
			func(s *fakeServer) { s.command(); empty(s) },
			func(t *testing.T, c *Conn) error { _, err := c.Prepare("SELECT v"); return err }},
		{"execute response", capsOK,
			func(s *fakeServer) { preparedServer(s, oneLongCol); s.command(); empty(s) }, queryErr},
		{"row", capsOK,
			func(s *fakeServer) {
				preparedServer(s, oneLongCol)
				s.command()
				s.replyRaw(s.frames(appendLenEnc(nil, 1), colDef(oneLongCol[0]), nil))
			}, queryErr},
		{"EOF after column definitions", capsEOF,
			func(s *fakeServer) {
				s.command()
				s.replyRaw(s.frames(cat([]byte{0}, le32(1), le16(1), le16(0), []byte{0, 0, 0}), colDef(oneLongCol[0]), nil))
			},
			func(t *testing.T, c *Conn) error { _, err := c.Prepare("SELECT v"); return err }},
		{"text row dropped", capsOK,
			func(s *fakeServer) {
				s.command()
				s.replyRaw(s.frames(appendLenEnc(nil, 1), colDef(oneLongCol[0]), nil))
			}, simpleErr},
		{"result after more-results", capsOK,
			func(s *fakeServer) { s.command(); s.replyRaw(s.frames(ok(0, statusMore), nil)) }, simpleErr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := startFake(t, tt.caps, func(s *fakeServer) {
				tt.script(s)
				s.expectClosed()
			})
			err := func() (err error) {
				defer func() {
					if p := recover(); p != nil {
						err = fmt.Errorf("panic: %v", p)
						_ = c.nc.Close()
					}
				}()
				return tt.run(t, c)
			}()
			if !errors.Is(err, mysql.ErrInvalidConn) || c.Err() == nil {
				t.Fatalf("err = %v, Err() = %v; want a protocol error ending the session", err, c.Err())
			}
		})
	}
}

// nilValuer is a driver.Valuer with a value receiver, like sql.NullInt64.
type nilValuer struct{ v int64 }

func (v nilValuer) Value() (driver.Value, error) { return v.v, nil }

// TestBugNilPointerValuer: database/sql and go-sql-driver send a nil
// pointer to a type whose Value method has a value receiver as NULL
// (callValuerValue). appendValue calls the method through the nil pointer
// and panics: for example a nil *sql.NullInt64, or a nil *target.Cents
// (which also takes the TextAppender path, appendText).
func TestBugNilPointerValuer(t *testing.T) {
	tests := []struct {
		name string
		arg  any
	}{
		{"*sql.NullInt64", (*sql.NullInt64)(nil)},
		{"value-receiver Valuer", (*nilValuer)(nil)},
		{"Valuer and TextAppender (like *target.Cents)", (*textArg)(nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := func() (b []byte, err error) {
				defer func() {
					if p := recover(); p != nil {
						err = fmt.Errorf("panic: %v", p)
					}
				}()
				return newParamConn(nil).appendParams(nil, &Stmt{nParams: 1}, []any{tt.arg})
			}()
			if want := []byte{1, 1, typeNull, 0}; err != nil || !bytes.Equal(got, want) {
				t.Fatalf("appendParams = % x, %v; want % x (NULL)", got, err, want)
			}
		})
	}
}

type myUint64 uint64

// TestBugNamedUint64HighBit: go-sql-driver's own converter (kept in step
// with database/sql's except for this case) sends named unsigned types
// with the high bit set as unsigned LONGLONG; appendValue converts them
// with driver.DefaultParameterConverter, which rejects them ("uint64 values
// with high bit set are not supported"). Minor.
func TestBugNamedUint64HighBit(t *testing.T) {
	got, err := newParamConn(nil).appendParams(nil, &Stmt{nParams: 1}, []any{myUint64(1 << 63)})
	if want := cat([]byte{0, 1, typeLongLong, paramUnsigned}, le64(1<<63)); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("appendParams = % x, %v; want % x", got, err, want)
	}
}

// TestBugAnyEmptyString: database/sql stores a copy made with bytes.Clone
// into *any, so an empty string scans as a non-nil empty []byte
// (assign's own *[]byte case does the same), while assign stores
// []byte(nil). Minor: only code that tests the slice against nil sees it.
func TestBugAnyEmptyString(t *testing.T) {
	var a any
	v := vBytes("")
	if err := New(nil, Caps{}, nil).assign(&a, &v, colString); err != nil {
		t.Fatal(err)
	}
	if b, ok := a.([]byte); !ok || b == nil {
		t.Fatalf("*any = %#v, want []byte{}", a)
	}
}

// TestBugRawBytesEmptyString: database/sql sets a *sql.RawBytes to the
// driver's bytes, so an empty string is a non-nil empty slice and only NULL
// is nil. assign appends to (*d)[:0], which stays nil for an empty value
// when the destination starts nil (the usual `var b sql.RawBytes`), so an
// empty string reads as NULL.
func TestBugRawBytesEmptyString(t *testing.T) {
	var raw sql.RawBytes
	v := vBytes("")
	if err := New(nil, Caps{}, nil).assign(&raw, &v, colString); err != nil {
		t.Fatal(err)
	}
	if raw == nil {
		t.Fatal("empty string scanned as nil RawBytes (NULL)")
	}
}

// typeRecorder is an sql.Scanner that records the type and value given.
type typeRecorder struct{ got string }

func (r *typeRecorder) Scan(src any) error {
	if b, ok := src.([]byte); ok {
		src = string(b)
		r.got = "[]uint8:"
	} else {
		r.got = fmt.Sprintf("%T:", src)
	}
	r.got += fmt.Sprint(src)
	return nil
}

// TestBugScannerValues: driverValue documents "the value database/sql
// would hand an sql.Scanner with go-sql-driver", but go-sql-driver's
// binary rows (packets.go, binaryRows.readRow) hand a float32 for FLOAT
// columns and a []byte for unsigned BIGINT values above MaxInt64, where
// driverValue hands a float64 and a string. Visible effects: a FLOAT 3.14
// scans into sql.NullString as "3.140000104904175" (go-sql-driver: "3.14";
// *string gives "3.14"), and a Scanner switching on the type sees other
// types. sql.NullFloat64, *float64 and *any widen FLOAT the same way
// (3.140000104904175 and float64, where database/sql gives 3.14 and
// float32), and *any receives a uint64 for big unsigned values where
// database/sql stores go-sql-driver's []byte. Minor.
func TestBugScannerValues(t *testing.T) {
	c := New(nil, Caps{}, nil)
	tests := []struct {
		name string
		v    value
		col  *column
		dest func() any
		get  func(d any) string
		want string
	}{
		{"FLOAT into NullString", vFloat(float64(float32(3.14))), colFloat,
			func() any { return new(sql.NullString) }, func(d any) string { return d.(*sql.NullString).String }, "3.14"},
		{"FLOAT into a Scanner", vFloat(float64(float32(3.14))), colFloat,
			func() any { return new(typeRecorder) }, func(d any) string { return d.(*typeRecorder).got }, "float32:3.14"},
		{"big unsigned into a Scanner", vUint(1 << 63), colULong,
			func() any { return new(typeRecorder) }, func(d any) string { return d.(*typeRecorder).got }, "[]uint8:9223372036854775808"},
		{"FLOAT into NullFloat64", vFloat(float64(float32(3.14))), colFloat,
			func() any { return new(sql.NullFloat64) }, func(d any) string { return fmt.Sprint(d.(*sql.NullFloat64).Float64) }, "3.14"},
		{"FLOAT into *float64", vFloat(float64(float32(3.14))), colFloat,
			func() any { return new(float64) }, func(d any) string { return fmt.Sprint(*d.(*float64)) }, "3.14"},
		{"FLOAT into *any", vFloat(float64(float32(3.14))), colFloat,
			func() any { return new(any) }, func(d any) string { return fmt.Sprintf("%T:%v", *d.(*any), *d.(*any)) }, "float32:3.14"},
		{"big unsigned into *any", vUint(1 << 63), colULong,
			func() any { return new(any) }, func(d any) string { r := &typeRecorder{}; _ = r.Scan(*d.(*any)); return r.got }, "[]uint8:9223372036854775808"},
	}
	for _, tt := range tests {
		d := tt.dest()
		v := tt.v
		if err := c.assign(d, &v, tt.col); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := tt.get(d); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
