package mywire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// The fake server: a goroutine that plays the server side of a net.Pipe,
// reading the client's command packets and writing scripted responses.

// capsMatrix is every combination of the result-shaping capabilities.
var capsMatrix = []Caps{
	{Plain: true},
	{DeprecateEOF: true, Plain: true},
	{CacheMetadata: true, Plain: true},
	{DeprecateEOF: true, CacheMetadata: true, Plain: true},
}

func capsName(c Caps) string {
	return fmt.Sprintf("deprecateEOF=%v/cacheMetadata=%v", c.DeprecateEOF, c.CacheMetadata)
}

// omitsMetadata reports whether the fake server omits column definitions
// on repeated executions under caps (metadata-follows byte 0). With
// CacheMetadata but without DeprecateEOF this is a known bug of the client
// (TestBugOmittedMetadataWithoutDeprecateEOF), so the other tests send
// metadata there.
func omitsMetadata(c Caps) bool { return c.CacheMetadata && c.DeprecateEOF }

const pipeTimeout = 10 * time.Second

type fakeServer struct {
	t    *testing.T
	nc   net.Conn
	caps Caps
	seq  byte // next response sequence id
	done chan struct{}
	once sync.Once
	cli  net.Conn
	// lens: payload lengths of the packets of the last command read.
	lens []int
	// The client's bytes, as read by a goroutine that is always reading
	// (like a socket's receive buffer, so that the client's writes never
	// wait for the script): one chunk per Read, which on net.Pipe is one
	// client Write or part of it.
	chunks  chan []byte
	readErr error // why reading stopped; set before chunks is closed
	cur     []byte
}

// startFake connects a Conn to a scripted server over net.Pipe (the
// Conn's generic net.Conn path); script runs in its own goroutine and must
// read every command the client sends. The test waits for the script when
// it ends (or earlier, with wait).
func startFake(t *testing.T, caps Caps, script func(s *fakeServer)) (*Conn, *fakeServer) {
	t.Helper()
	return startFakeOn(t, "pipe", caps, script)
}

// transports: net.Pipe, and loopback TCP, where Conn uses raw system calls
// on Linux (rawio_linux.go).
var transports = []string{"pipe", "tcp"}

func startFakeOn(t *testing.T, transport string, caps Caps, script func(s *fakeServer)) (*Conn, *fakeServer) {
	t.Helper()
	var cli, srv net.Conn
	switch transport {
	case "pipe":
		cli, srv = net.Pipe()
	case "tcp":
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		accepted := make(chan net.Conn, 1)
		go func() {
			c, _ := ln.Accept()
			accepted <- c
		}()
		if cli, err = net.Dial("tcp", ln.Addr().String()); err != nil {
			t.Fatal(err)
		}
		if srv = <-accepted; srv == nil {
			t.Fatal("accept failed")
		}
	default:
		t.Fatalf("unknown transport %q", transport)
	}
	deadline := time.Now().Add(pipeTimeout)
	_ = cli.SetDeadline(deadline)
	_ = srv.SetDeadline(deadline)
	s := &fakeServer{t: t, nc: srv, caps: caps, done: make(chan struct{}), cli: cli, chunks: make(chan []byte, 4096)}
	go s.readLoop()
	go func() {
		defer close(s.done)
		defer srv.Close()
		script(s)
	}()
	t.Cleanup(s.wait)
	return New(cli, caps, nil), s
}

// wait waits for the script to finish and closes the client end. After a
// test failure it closes the client end first, so that a script waiting
// for a command that will not come ends at once.
func (s *fakeServer) wait() {
	s.once.Do(func() {
		if s.t.Failed() {
			_ = s.cli.Close()
		}
		<-s.done
		_ = s.cli.Close()
	})
}

func (s *fakeServer) readLoop() {
	defer close(s.chunks)
	for {
		buf := make([]byte, 64<<10)
		n, err := s.nc.Read(buf)
		if n > 0 {
			s.chunks <- buf[:n]
		}
		if err != nil {
			s.readErr = err
			return
		}
	}
}

// readFull reads exactly len(p) bytes the client wrote.
func (s *fakeServer) readFull(p []byte) error {
	for len(p) > 0 {
		if len(s.cur) == 0 {
			c, ok := <-s.chunks
			if !ok {
				return s.readErr
			}
			s.cur = c
		}
		n := copy(p, s.cur)
		s.cur, p = s.cur[n:], p[n:]
	}
	return nil
}

// nextWrite returns the next chunk whole: on net.Pipe, what the client
// wrote with one Write (up to 64 KiB).
func (s *fakeServer) nextWrite() []byte {
	if len(s.cur) > 0 {
		c := s.cur
		s.cur = nil
		return c
	}
	c, ok := <-s.chunks
	if !ok {
		s.t.Errorf("server: no more client writes: %v", s.readErr)
	}
	return c
}

// readPacket reads one packet: sequence id and payload.
func (s *fakeServer) readPacket() (byte, []byte, error) {
	var h [4]byte
	if err := s.readFull(h[:]); err != nil {
		return 0, nil, err
	}
	n := int(h[0]) | int(h[1])<<8 | int(h[2])<<16
	p := make([]byte, n)
	if err := s.readFull(p); err != nil {
		return 0, nil, err
	}
	return h[3], p, nil
}

// command reads one client command (sequence ids from 0, payloads of
// 16 MiB - 1 continued by the next packet) and returns its payload.
func (s *fakeServer) command() []byte {
	var all []byte
	want := byte(0)
	s.lens = s.lens[:0]
	for {
		seq, p, err := s.readPacket()
		if err != nil {
			s.t.Errorf("server: reading command: %v", err)
			return nil
		}
		if seq != want {
			s.t.Errorf("server: command packet sequence %d, want %d", seq, want)
		}
		want++
		s.lens = append(s.lens, len(p))
		all = append(all, p...)
		if len(p) < maxPayload {
			break
		}
	}
	s.seq = want
	return all
}

// expect reads one command and checks its payload.
func (s *fakeServer) expect(want []byte) {
	s.t.Helper()
	got := s.command()
	if !bytes.Equal(got, want) {
		if len(got) > 200 || len(want) > 200 {
			s.t.Errorf("server: command of %d bytes differs from the expected %d bytes", len(got), len(want))
			return
		}
		s.t.Errorf("server: command\n% x\nwant\n% x", got, want)
	}
}

// expectClosed checks that the client closed its end (after a failure)
// without writing anything more.
func (s *fakeServer) expectClosed() {
	s.t.Helper()
	more := s.cur
	for c := range s.chunks {
		more = append(more, c...)
	}
	s.cur = nil
	if len(more) > 0 || !errors.Is(s.readErr, io.EOF) {
		s.t.Errorf("server: after the failure the client wrote % x and reading ended with %v; want the client to close the socket", more, s.readErr)
	}
}

// frame appends payload p as one or more packets, continuing s.seq.
func (s *fakeServer) frame(b, p []byte) []byte {
	for {
		k := min(len(p), maxPayload)
		b = append(b, byte(k), byte(k>>8), byte(k>>16), s.seq)
		b = append(b, p[:k]...)
		s.seq++
		p = p[k:]
		if k < maxPayload {
			return b
		}
	}
}

// frames returns payloads as packets, continuing s.seq.
func (s *fakeServer) frames(payloads ...[]byte) []byte {
	var b []byte
	for _, p := range payloads {
		b = s.frame(b, p)
	}
	return b
}

// reply writes payloads as packets in one write.
func (s *fakeServer) reply(payloads ...[]byte) {
	s.t.Helper()
	if _, err := s.nc.Write(s.frames(payloads...)); err != nil {
		s.t.Errorf("server: write: %v", err)
	}
}

// replyRaw writes bytes as they are, ignoring a client that gave up.
func (s *fakeServer) replyRaw(b []byte) { _, _ = s.nc.Write(b) }

// rawPacket is a packet with an explicit sequence id.
func rawPacket(seq byte, p []byte) []byte {
	return append([]byte{byte(len(p)), byte(len(p) >> 8), byte(len(p) >> 16), seq}, p...)
}

// Payload builders.

// okPacket is an OK packet with header 0x00 (or 0xfe ending a result under
// CLIENT_DEPRECATE_EOF).
func okPacket(header byte, affected, insertID uint64, status uint16) []byte {
	p := []byte{header}
	p = appendLenEnc(p, affected)
	p = appendLenEnc(p, insertID)
	p = append(p, le16(status)...)
	return append(p, 0, 0) // warnings
}

func ok(affected uint64, status uint16) []byte { return okPacket(0x00, affected, 0, status) }

// errPacket is an ERR packet; state "" omits the '#' SQLSTATE marker.
func errPacket(code uint16, state, msg string) []byte {
	p := append([]byte{0xff}, le16(code)...)
	if state != "" {
		p = append(append(p, '#'), state...)
	}
	return append(p, msg...)
}

func eofPacket(status uint16) []byte { return cat([]byte{0xfe, 0, 0}, le16(status)) }

// colSpec describes one column definition.
type colSpec struct {
	name     string
	typ      byte
	flags    uint16
	decimals byte
}

func (c colSpec) column() column {
	return column{typ: c.typ, unsigned: c.flags&flagUnsigned != 0, decimals: c.decimals, name: c.name}
}

// colDef is a Protocol::ColumnDefinition41 payload.
func colDef(c colSpec) []byte {
	p := cat(lstr("def"), lstr("bp"), lstr("t"), lstr("t_org"), lstr(c.name), lstr(c.name+"_org"))
	p = append(p, 0x0c)
	p = append(p, le16(63)...)  // charset
	p = append(p, le32(255)...) // length
	p = append(p, c.typ)
	p = append(p, le16(c.flags)...)
	p = append(p, c.decimals, 0, 0)
	return p
}

// endOfRows ends a result's rows: OK with header 0xfe, or EOF.
func (s *fakeServer) endOfRows(status uint16) []byte {
	if s.caps.DeprecateEOF {
		return okPacket(0xfe, 0, 0, status)
	}
	return eofPacket(status)
}

// defs is column definitions followed by the EOF packet when
// CLIENT_DEPRECATE_EOF is off.
func (s *fakeServer) defs(cols []colSpec) [][]byte {
	var out [][]byte
	for _, c := range cols {
		out = append(out, colDef(c))
	}
	if !s.caps.DeprecateEOF {
		out = append(out, eofPacket(0))
	}
	return out
}

// prepareOK is a COM_STMT_PREPARE response.
func (s *fakeServer) prepareOK(id uint32, params, cols []colSpec) [][]byte {
	head := cat([]byte{0}, le32(id), le16(uint16(len(cols))), le16(uint16(len(params))), []byte{0}, le16(0))
	out := [][]byte{head}
	if len(params) > 0 {
		out = append(out, s.defs(params)...)
	}
	if len(cols) > 0 {
		out = append(out, s.defs(cols)...)
	}
	return out
}

// resultSet is a result as MariaDB sends it: column count (with the
// metadata-follows byte under CacheMetadata), column definitions unless
// omitted, EOF without CLIENT_DEPRECATE_EOF (sent even when the
// definitions are omitted), rows, and the end packet with status.
func (s *fakeServer) resultSet(cols []colSpec, meta bool, rows [][]byte, status uint16) [][]byte {
	count := appendLenEnc(nil, uint64(len(cols)))
	if s.caps.CacheMetadata {
		if meta {
			count = append(count, 1)
		} else {
			count = append(count, 0)
		}
	}
	out := [][]byte{count}
	if !s.caps.CacheMetadata || meta {
		for _, c := range cols {
			out = append(out, colDef(c))
		}
	}
	if !s.caps.DeprecateEOF {
		out = append(out, eofPacket(0))
	}
	out = append(out, rows...)
	return append(out, s.endOfRows(status))
}

// binRow is a binary result row; a nil cell is NULL.
func binRow(cells ...[]byte) []byte {
	p := make([]byte, 1+(len(cells)+9)/8)
	for i, c := range cells {
		if c == nil {
			p[1+(i+2)/8] |= 1 << ((i + 2) % 8)
			continue
		}
		p = append(p, c...)
	}
	return p
}

// textRow is a text result row; a nil cell is NULL.
func textRow(cells ...[]byte) []byte {
	var p []byte
	for _, c := range cells {
		if c == nil {
			p = append(p, 0xfb)
			continue
		}
		p = append(p, lstr(string(c))...)
	}
	return p
}

// Client command builders.

func queryCmd(cmd byte, q string) []byte { return append([]byte{cmd}, q...) }

// execCmd is COM_STMT_EXECUTE for statement id with the parameter block.
func execCmd(id uint32, params ...[]byte) []byte {
	return cat([]byte{comStmtExecute}, le32(id), []byte{0, 1, 0, 0, 0}, cat(params...))
}
