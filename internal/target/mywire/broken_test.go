package mywire

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// brokenCase is a response that must end the session.
type brokenCase struct {
	name string
	caps Caps
	// script answers the client; the harness then checks that the client
	// closed the socket.
	script func(s *fakeServer)
	// run performs the client side and returns the first failure.
	run     func(t *testing.T, c *Conn) error
	wantIs  error
	wantMsg string // substring of the error
	// serverCloses: the script closes the server's end itself.
	serverCloses bool
}

var (
	capsEOF    = Caps{Plain: true}
	capsOK     = Caps{DeprecateEOF: true, Plain: true}
	capsCached = Caps{DeprecateEOF: true, CacheMetadata: true, Plain: true}
	oneLongCol = []colSpec{{name: "v", typ: typeLongLong}}
)

// preparedServer has the client prepare "SELECT v" (statement 1, one BIGINT
// column) and the server answer it.
func preparedServer(s *fakeServer, cols []colSpec) {
	s.expect(queryCmd(comStmtPrepare, "SELECT v"))
	s.reply(s.prepareOK(1, nil, cols)...)
}

func preparedClient(t *testing.T, c *Conn) *Stmt {
	t.Helper()
	st, err := c.Prepare("SELECT v")
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	return st
}

// queryErr runs the prepared statement and returns the first error of
// Query, Next/Err or Scan.
func queryErr(t *testing.T, c *Conn) error {
	st := preparedClient(t, c)
	r, err := st.Query(nil)
	if err != nil {
		return err
	}
	for r.Next() {
		dest := make([]any, r.Columns())
		for i := range dest {
			dest[i] = new(any)
		}
		if err := r.Scan(dest...); err != nil {
			return err
		}
	}
	if r.Err() == nil {
		t.Fatal("query ended without an error")
	}
	return r.Err()
}

func simpleErr(t *testing.T, c *Conn) error {
	_, err := c.SimpleExec("BEGIN")
	return err
}

var brokenCases = []brokenCase{
	{
		name: "wrong sequence id in OK", caps: capsOK,
		script: func(s *fakeServer) { s.command(); s.replyRaw(rawPacket(2, ok(0, 0))) },
		run:    simpleErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "packet sequence 2, expected 1",
	},
	{
		name: "sequence id 0 in a response", caps: capsOK,
		script: func(s *fakeServer) { s.command(); s.replyRaw(rawPacket(0, ok(0, 0))) },
		run:    simpleErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "packet sequence 0, expected 1",
	},
	{
		name: "wrong sequence id in a row", caps: capsOK,
		script: func(s *fakeServer) {
			preparedServer(s, oneLongCol)
			s.command()
			head := s.frames(appendLenEnc(nil, 1), colDef(oneLongCol[0]), binRow(i64(1)))
			s.replyRaw(append(head, rawPacket(s.seq+1, binRow(i64(2)))...))
		},
		run:    queryErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "packet sequence 5, expected 4",
	},
	{
		name: "short OK packet", caps: capsOK,
		script: func(s *fakeServer) { s.command(); s.replyRaw(s.frames([]byte{0x00, 0x01})) },
		run:    simpleErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "short OK packet",
	},
	{
		name: "OK packet without status", caps: capsOK,
		script: func(s *fakeServer) { s.command(); s.replyRaw(s.frames([]byte{0x00, 0x01, 0x00, 0x02})) },
		run:    simpleErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "short OK packet",
	},
	{
		name: "short prepare response", caps: capsOK,
		script: func(s *fakeServer) {
			s.command()
			s.replyRaw(s.frames([]byte{0, 1, 0, 0, 0, 1, 0, 0})) // id and column count, no parameter count
		},
		run:    func(t *testing.T, c *Conn) error { _, err := c.Prepare("SELECT v"); return err },
		wantIs: mysql.ErrInvalidConn, wantMsg: "bad COM_STMT_PREPARE response",
	},
	{
		name: "prepare response with a result header", caps: capsOK,
		script: func(s *fakeServer) {
			s.command()
			s.replyRaw(s.frames([]byte{1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0}))
		},
		run:    func(t *testing.T, c *Conn) error { _, err := c.Prepare("SELECT v"); return err },
		wantIs: mysql.ErrInvalidConn, wantMsg: "bad COM_STMT_PREPARE response",
	},
	{
		name: "truncated column definition", caps: capsOK,
		script: func(s *fakeServer) {
			s.command()
			def := colDef(oneLongCol[0])
			s.replyRaw(s.frames(cat([]byte{0}, le32(1), le16(1), le16(0), []byte{0, 0, 0}), def[:len(def)-4]))
		},
		run:    func(t *testing.T, c *Conn) error { _, err := c.Prepare("SELECT v"); return err },
		wantIs: mysql.ErrInvalidConn, wantMsg: "short column definition",
	},
	{
		name: "column definition with a name past the end", caps: capsOK,
		script: func(s *fakeServer) {
			s.command()
			s.replyRaw(s.frames(cat([]byte{0}, le32(1), le16(1), le16(0), []byte{0, 0, 0}), cat(lstr("def"), []byte{0x20, 'x'})))
		},
		run:    func(t *testing.T, c *Conn) error { _, err := c.Prepare("SELECT v"); return err },
		wantIs: mysql.ErrInvalidConn, wantMsg: "short column definition",
	},
	{
		name: "no EOF after column definitions", caps: capsEOF,
		script: func(s *fakeServer) {
			s.command()
			s.replyRaw(s.frames(cat([]byte{0}, le32(1), le16(1), le16(0), []byte{0, 0, 0}), colDef(oneLongCol[0]), ok(0, 0)))
		},
		run:    func(t *testing.T, c *Conn) error { _, err := c.Prepare("SELECT v"); return err },
		wantIs: mysql.ErrInvalidConn, wantMsg: "expected EOF after column definitions, got 0x00",
	},
	{
		name: "no EOF after parameter definitions", caps: capsEOF,
		script: func(s *fakeServer) {
			s.command()
			s.replyRaw(s.frames(cat([]byte{0}, le32(1), le16(0), le16(1), []byte{0, 0, 0}), colDef(colSpec{name: "?"}), colDef(colSpec{name: "?"})))
		},
		run:    func(t *testing.T, c *Conn) error { _, err := c.Prepare("SELECT v"); return err },
		wantIs: mysql.ErrInvalidConn, wantMsg: "expected EOF after column definitions, got 0x03",
	},
	{
		name: "short EOF ending rows", caps: capsEOF,
		script: func(s *fakeServer) {
			preparedServer(s, oneLongCol)
			s.command()
			s.replyRaw(s.frames(appendLenEnc(nil, 1), colDef(oneLongCol[0]), eofPacket(0), binRow(i64(1)), []byte{0xfe, 0, 0}))
		},
		run:    queryErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "short EOF packet",
	},
	{
		name: "short OK ending rows", caps: capsOK,
		script: func(s *fakeServer) {
			preparedServer(s, oneLongCol)
			s.command()
			s.replyRaw(s.frames(appendLenEnc(nil, 1), colDef(oneLongCol[0]), binRow(i64(1)), []byte{0xfe}))
		},
		run:    queryErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "short OK packet",
	},
	{
		name: "unexpected packet in rows", caps: capsOK,
		script: func(s *fakeServer) {
			preparedServer(s, oneLongCol)
			s.command()
			s.replyRaw(s.frames(appendLenEnc(nil, 1), colDef(oneLongCol[0]), cat([]byte{0x05, 0}, i64(1))))
		},
		run:    queryErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "unexpected packet 0x05 in binary result",
	},
	{
		name: "truncated column count", caps: capsOK,
		script: func(s *fakeServer) {
			preparedServer(s, oneLongCol)
			s.command()
			s.replyRaw(s.frames([]byte{0xfc, 0x01}))
		},
		run:    queryErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "bad column count in execute response",
	},
	{
		name: "column count over 65536", caps: capsOK,
		script: func(s *fakeServer) {
			preparedServer(s, oneLongCol)
			s.command()
			s.replyRaw(s.frames(appendLenEnc(nil, 1<<16+1)))
		},
		run:    queryErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "bad column count in execute response",
	},
	{
		name: "metadata omitted for a different column count", caps: capsCached,
		script: func(s *fakeServer) {
			preparedServer(s, oneLongCol)
			s.command()
			s.replyRaw(s.frames([]byte{2, 0}, binRow(i64(1), i64(2)), okPacket(0xfe, 0, 0, 0)))
		},
		run:    queryErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "server omitted metadata for 2 columns, 1 cached",
	},
	{
		name: "truncated value in a row", caps: capsOK,
		script: func(s *fakeServer) {
			preparedServer(s, oneLongCol)
			s.command()
			s.replyRaw(s.frames(appendLenEnc(nil, 1), colDef(oneLongCol[0]), []byte{0, 0, 1, 2, 3}, okPacket(0xfe, 0, 0, 0)))
		},
		run:    queryErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "column 0: short value",
	},
	{
		name: "row shorter than its NULL bitmap", caps: capsOK,
		script: func(s *fakeServer) {
			cols := make([]colSpec, 12)
			for i := range cols {
				cols[i] = colSpec{name: "c", typ: typeLongLong}
			}
			preparedServer(s, cols)
			s.command()
			payloads := [][]byte{appendLenEnc(nil, 12)}
			for _, c := range cols {
				payloads = append(payloads, colDef(c))
			}
			s.replyRaw(s.frames(append(payloads, []byte{0, 0}, okPacket(0xfe, 0, 0, 0))...))
		},
		run:    queryErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "short binary row",
	},
	{
		name: "truncated column count of a text result", caps: capsOK,
		script: func(s *fakeServer) { s.command(); s.replyRaw(s.frames([]byte{0xfc, 0x01})) },
		run:    simpleErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "bad column count",
	},
	{
		name: "closed after an OK announcing more results", caps: capsOK,
		script: func(s *fakeServer) { s.command(); s.replyRaw(s.frames(ok(0, statusMore))); s.nc.Close() },
		run:    simpleErr,
		wantIs: io.ErrUnexpectedEOF, serverCloses: true,
	},
	{
		name: "malformed OK among more results", caps: capsOK,
		script: func(s *fakeServer) { s.command(); s.replyRaw(s.frames(ok(0, statusMore), []byte{0x00})) },
		run:    simpleErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "short OK packet",
	},
	{
		name: "LOCAL INFILE request", caps: capsOK,
		script: func(s *fakeServer) { s.command(); s.replyRaw(s.frames([]byte("\xfb/etc/passwd"))) },
		run:    simpleErr,
		wantIs: mysql.ErrInvalidConn, wantMsg: "LOCAL INFILE request is not supported here",
	},
	{
		name: "unread bytes before a command", caps: capsOK,
		script: func(s *fakeServer) {
			s.command()
			s.replyRaw(append(s.frames(ok(0, 0)), rawPacket(2, ok(0, 0))...))
		},
		run: func(t *testing.T, c *Conn) error {
			if _, err := c.SimpleExec("BEGIN"); err != nil {
				t.Fatalf("first command: %v", err)
			}
			_, err := c.SimpleExec("COMMIT")
			return err
		},
		wantIs: mysql.ErrInvalidConn, wantMsg: "11 unread bytes before a new command",
	},
	{
		name: "closed before the response", caps: capsOK,
		script:       func(s *fakeServer) { s.command(); s.nc.Close() },
		run:          simpleErr,
		serverCloses: true,
		wantIs:       io.ErrUnexpectedEOF,
	},
	{
		name: "closed inside a header", caps: capsOK,
		script:       func(s *fakeServer) { s.command(); s.replyRaw([]byte{7, 0}); s.nc.Close() },
		run:          simpleErr,
		serverCloses: true,
		wantIs:       io.ErrUnexpectedEOF,
	},
	{
		name: "closed inside a payload", caps: capsOK,
		script:       func(s *fakeServer) { s.command(); s.replyRaw(s.frames(ok(0, 0))[:8]); s.nc.Close() },
		run:          simpleErr,
		serverCloses: true,
		wantIs:       io.ErrUnexpectedEOF,
	},
	{
		name: "closed between rows", caps: capsEOF,
		script: func(s *fakeServer) {
			preparedServer(s, oneLongCol)
			s.command()
			s.replyRaw(s.frames(appendLenEnc(nil, 1), colDef(oneLongCol[0]), eofPacket(0), binRow(i64(1))))
			s.nc.Close()
		},
		run:          queryErr,
		serverCloses: true,
		wantIs:       io.ErrUnexpectedEOF,
	},
	{
		name: "closed inside column definitions", caps: capsCached,
		script: func(s *fakeServer) {
			preparedServer(s, oneLongCol)
			s.command()
			s.replyRaw(s.frames([]byte{1, 1}))
			s.nc.Close()
		},
		run:          queryErr,
		serverCloses: true,
		wantIs:       io.ErrUnexpectedEOF,
	},
}

// TestBrokenSession checks every transport and protocol failure: the
// call fails with the expected error (protocol errors wrap
// mysql.ErrInvalidConn), Conn.Err reports it, the client closes the
// socket, every later call fails with ErrBroken (which wraps
// mysql.ErrInvalidConn, so it classifies as a lost connection), and Close
// writes nothing.
func TestBrokenSession(t *testing.T) {
	for _, tc := range brokenCases {
		t.Run(tc.name, func(t *testing.T) {
			c, srv := startFake(t, tc.caps, func(s *fakeServer) {
				tc.script(s)
				if !tc.serverCloses {
					s.expectClosed()
				}
			})
			err := tc.run(t, c)
			if err == nil || !errors.Is(err, tc.wantIs) || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Fatalf("err = %v, want %v containing %q", err, tc.wantIs, tc.wantMsg)
			}
			if c.Err() == nil {
				t.Fatal("Conn.Err() = nil after the failure")
			}
			st := &Stmt{c: c} // a statement prepared before the failure
			later := map[string]error{}
			_, later["SimpleExec"] = c.SimpleExec("ROLLBACK")
			_, later["Prepare"] = c.Prepare("SELECT 1")
			_, later["Exec"] = st.Exec(nil)
			_, later["Query"] = st.Query(nil)
			for op, err := range later {
				if !errors.Is(err, ErrBroken) || !errors.Is(err, mysql.ErrInvalidConn) {
					t.Errorf("%s after the failure: %v, want ErrBroken wrapping mysql.ErrInvalidConn", op, err)
				}
			}
			c.stmts = append(c.stmts, st)
			if err := c.Close(); err != nil { // writes nothing: expectClosed
				t.Fatalf("Close after the failure: %v", err)
			}
			srv.wait()
		})
	}
}

// An ERR the server sends unsolicited (sequence 0, as MySQL does when it
// closes an idle session) is returned as the server's error, not as a
// protocol error, and the session is closed.
func TestUnsolicitedServerError(t *testing.T) {
	c, srv := startFake(t, capsOK, func(s *fakeServer) {
		s.command()
		s.replyRaw(rawPacket(0, errPacket(4031, "HY000", "The client was disconnected by the server because of inactivity.")))
		s.expectClosed()
	})
	err := simpleErr(t, c)
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 4031 || !strings.Contains(me.Message, "inactivity") {
		t.Fatalf("err = %v, want the server's 4031", err)
	}
	if c.Err() == nil {
		t.Fatal("Conn.Err() = nil: the session must be closed")
	}
	if _, err := c.SimpleExec("ROLLBACK"); !errors.Is(err, ErrBroken) {
		t.Errorf("later call: %v, want ErrBroken", err)
	}
	_ = c.Close()
	srv.wait()
}
