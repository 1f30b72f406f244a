package mywire

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// Payloads of 16 MiB - 1 bytes and more travel as several packets: every
// full packet is followed by another, possibly empty one.

// TestMultiPacketWrite checks that a COM_STMT_EXECUTE with a big string
// argument is split into packets of exactly 16 MiB - 1 with consecutive
// sequence ids (an empty packet after an exact multiple), reassembles to
// the right bytes, and that the response is then expected at the next
// sequence id.
func TestMultiPacketWrite(t *testing.T) {
	// Execute payload without the string: command, id, flags, iteration
	// count, NULL bitmap, bound flag, one type: 14 bytes; plus a 4-byte
	// length for strings from 64 KiB to 16 MiB.
	const overhead = 18
	tests := []struct {
		name string
		n    int
		lens []int
	}{
		{"one byte short of a full packet", maxPayload - overhead - 1, []int{maxPayload - 1}},
		{"exactly one full packet", maxPayload - overhead, []int{maxPayload, 0}},
		{"full packet and 1000 bytes", maxPayload - overhead + 1000, []int{maxPayload, 1005}}, // 9-byte length from 16 MiB
	}
	for _, tr := range transports {
		for _, tt := range tests {
			t.Run(tr+"/"+tt.name, func(t *testing.T) {
				big := string(repeatPattern(tt.n))
				want := execCmd(1, []byte{0, 1, 0xfe, 0}, lstr(big))
				c, _ := startFakeOn(t, tr, Caps{DeprecateEOF: true, Plain: true}, func(s *fakeServer) {
					s.expect(queryCmd(comStmtPrepare, "INSERT INTO t VALUES (?)"))
					s.reply(s.prepareOK(1, []colSpec{{name: "?"}}, nil)...)
					got := s.command()
					if !bytes.Equal(got, want) || !reflect.DeepEqual(s.lens, tt.lens) {
						s.t.Errorf("server: command of %d bytes in packets %v; want %d bytes in %v", len(got), s.lens, len(want), tt.lens)
					}
					s.reply(ok(1, 0))
					s.expect(queryCmd(comQuery, "COMMIT"))
					s.reply(ok(0, 0))
				})
				st, err := c.Prepare("INSERT INTO t VALUES (?)")
				if err != nil {
					t.Fatal(err)
				}
				if n, err := st.Exec([]any{big}); n != 1 || err != nil {
					t.Fatalf("Exec = %d, %v", n, err)
				}
				if _, err := c.SimpleExec("COMMIT"); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// TestMultiPacketRead checks that binary rows of 16 MiB - 1 bytes and more
// are reassembled (sequence ids continuing across the packets, the empty
// packet after an exact multiple consumed), scan to the exact values, and
// leave the session in step for the rows and commands that follow.
func TestMultiPacketRead(t *testing.T) {
	cols := []colSpec{{name: "s", typ: typeVarString}, {name: "n", typ: typeLongLong}}
	// Row payload without the string: header, NULL bitmap, 4-byte length,
	// BIGINT.
	const overhead = 14
	sizes := []int{maxPayload - overhead, maxPayload}
	for _, tr := range transports {
		for _, caps := range []Caps{capsEOF, capsOK} {
			t.Run(tr+"/"+capsName(caps), func(t *testing.T) {
				bigs := make([]string, len(sizes))
				var rows [][]byte
				for i, n := range sizes {
					bigs[i] = string(repeatPattern(n + i))[i:]
					rows = append(rows, binRow(lstr(bigs[i]), i64(int64(i))))
					rows = append(rows, binRow(lstr("small"), i64(100+int64(i))))
				}
				if len(rows[0]) != maxPayload || len(rows[2]) != maxPayload+overhead {
					t.Fatalf("row sizes %d, %d: test setup wrong", len(rows[0]), len(rows[2]))
				}
				c, _ := startFakeOn(t, tr, caps, func(s *fakeServer) {
					s.expect(queryCmd(comStmtPrepare, "SELECT s, n FROM t"))
					s.reply(s.prepareOK(2, nil, cols)...)
					s.expect(execCmd(2))
					s.reply(s.resultSet(cols, true, rows, 0)...)
					s.expect(queryCmd(comQuery, "COMMIT"))
					s.reply(ok(0, 0))
				})
				st, err := c.Prepare("SELECT s, n FROM t")
				if err != nil {
					t.Fatal(err)
				}
				r, err := st.Query(nil)
				if err != nil {
					t.Fatal(err)
				}
				for i := range sizes {
					for j, want := range []string{bigs[i], "small"} {
						var s string
						var n int64
						if !r.Next() {
							t.Fatalf("row %d.%d missing: %v", i, j, r.Err())
						}
						if err := r.Scan(&s, &n); err != nil {
							t.Fatal(err)
						}
						if s != want || n != int64(i+100*j) {
							t.Fatalf("row %d.%d: %d-byte string (equal %v), n %d", i, j, len(s), s == want, n)
						}
					}
				}
				if r.Next() || r.Err() != nil {
					t.Fatalf("end of rows: %v", r.Err())
				}
				if _, err := c.SimpleExec("COMMIT"); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// TestMultiPacketTextRowStartingWithFE checks that a text row whose first
// value is 16 MiB long (length header 0xfe) is not taken for the end of a
// result set when SimpleExec drops it: the whole result is consumed and the
// next command is in step.
func TestMultiPacketTextRowStartingWithFE(t *testing.T) {
	cols := []colSpec{{name: "s", typ: typeBlob}}
	for _, caps := range []Caps{capsEOF, capsOK, capsCached} {
		t.Run(capsName(caps), func(t *testing.T) {
			row := textRow(repeatPattern(1 << 24))
			if row[0] != 0xfe || len(row) <= maxPayload {
				t.Fatalf("row header %#x, %d bytes: test setup wrong", row[0], len(row))
			}
			c, _ := startFake(t, caps, func(s *fakeServer) {
				s.expect(queryCmd(comQuery, "SELECT s FROM t"))
				s.reply(s.resultSet(cols, true, [][]byte{row, textRow([]byte("x"))}, 0)...)
				s.expect(queryCmd(comQuery, "COMMIT"))
				s.reply(ok(7, 0))
			})
			if n, err := c.SimpleExec("SELECT s FROM t"); n != 0 || err != nil {
				t.Fatalf("SimpleExec = %d, %v", n, err)
			}
			if n, err := c.SimpleExec("COMMIT"); n != 7 || err != nil {
				t.Fatalf("next command = %d, %v; want 7", n, err)
			}
		})
	}
}

// TestMultiPacketWrongSequence checks that a continuation packet with the
// wrong sequence id ends the session with a protocol error.
func TestMultiPacketWrongSequence(t *testing.T) {
	cols := []colSpec{{name: "s", typ: typeVarString}}
	c, _ := startFake(t, capsOK, func(s *fakeServer) {
		s.expect(queryCmd(comStmtPrepare, "SELECT s FROM t"))
		s.reply(s.prepareOK(2, nil, cols)...)
		s.expect(execCmd(2))
		head := s.frames(appendLenEnc(nil, 1), colDef(cols[0]))
		row := binRow(lstr(string(repeatPattern(maxPayload - 6))))
		if len(row) != maxPayload {
			s.t.Errorf("row of %d bytes: test setup wrong", len(row))
		}
		head = append(head, rawPacket(s.seq, row)...)
		head = append(head, rawPacket(s.seq+2, nil)...) // should be s.seq+1
		s.replyRaw(head)
		s.expectClosed()
	})
	st, err := c.Prepare("SELECT s FROM t")
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.Query(nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Next() {
		t.Fatal("got a row")
	}
	if err := r.Err(); !errors.Is(err, mysql.ErrInvalidConn) || err.Error() != "invalid connection: mysql protocol: packet sequence 5, expected 4" {
		t.Fatalf("err = %v", err)
	}
	if c.Err() == nil {
		t.Fatal("session not broken")
	}
}
