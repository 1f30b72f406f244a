// This file is a session's transport: the Conn, its framing (packets in and
// out, 16 MiB continuation), COM_QUERY without a result, and Close. The
// response packets are in response.go, prepared statements in stmt.go,
// result rows in rows.go.

package mywire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Command bytes (client/server protocol, "Command Phase").
const (
	comQuery       = 0x03
	comStmtPrepare = 0x16
	comStmtExecute = 0x17
	comStmtClose   = 0x19
)

// Packet headers.
const (
	pktOK  = 0x00
	pktEOF = 0xfe
	pktERR = 0xff

	maxPayload = 1<<24 - 1
)

// statusMoreResults is SERVER_MORE_RESULTS_EXISTS in an OK/EOF status.
const statusMoreResults = 0x0008

// ErrBroken is returned (wrapped) by every call on a Conn after a transport
// or protocol failure: the session is gone, as with the driver's
// mysql.ErrInvalidConn, which it wraps so that callers classify it as a lost
// connection.
var ErrBroken = fmt.Errorf("%w: session closed after an earlier failure", mysql.ErrInvalidConn)

// Conn drives one MySQL session's socket. It is owned by one goroutine.
type Conn struct {
	nc   net.Conn
	io   io.ReadWriter // nc, or raw system calls on its descriptor (rawio_linux.go)
	caps Caps
	loc  *time.Location

	buf  []byte // read buffer; buf[r:w] is unread
	r, w int
	big  []byte // reassembly of a payload of 16 MiB or more
	out  []byte // the command being written, header included
	seq  byte   // next expected or sent sequence id
	err  error  // sticky: set once the session is unusable

	rows    Rows
	stmts   []*Stmt
	scratch []byte // dates and times formatted as text, one value at a time
	status  uint16 // server status of the last OK/EOF
}

// New takes over nc for hot-path commands. loc is the session's time zone
// for time.Time arguments (go-sql-driver's loc parameter; nil = UTC).
func New(nc net.Conn, caps Caps, loc *time.Location) *Conn {
	if loc == nil {
		loc = time.UTC
	}
	c := &Conn{nc: nc, caps: caps, loc: loc, buf: make([]byte, 16<<10), out: make([]byte, 0, 512), scratch: make([]byte, 0, 64)}
	c.rows.c = c
	c.io = RawIO(nc)
	return c
}

// rawIOer is a socket that already reads and writes with raw system calls
// (target's sockets, sockio.Conn): RawIO uses what it returns.
type rawIOer interface{ RawIO() io.ReadWriter }

// RawIO returns a reader/writer for nc that uses raw system calls on its
// descriptor where the platform allows it (see rawio_linux.go), else nc
// itself. Deadlines set on nc still apply. Not safe for concurrent use.
func RawIO(nc net.Conn) io.ReadWriter {
	if r, ok := nc.(rawIOer); ok {
		return r.RawIO()
	}
	if r := newRawIO(nc); r != nil {
		return r
	}
	return nc
}

// Err reports the failure that ended the session, or nil.
func (c *Conn) Err() error { return c.err }

// fail makes err sticky, closes the socket (so that the driver sharing it
// also sees the session as dead) and returns err wrapped for its caller.
func (c *Conn) fail(err error) error {
	if c.err == nil {
		c.err = err
		_ = c.nc.Close()
	}
	return err
}

func (c *Conn) usable() error {
	if c.err != nil {
		return ErrBroken
	}
	return nil
}

// protocolError is a malformed or unexpected packet: the session is out of
// step with the server and is closed.
func (c *Conn) protocolError(format string, args ...any) error {
	return c.fail(fmt.Errorf("%w: mysql protocol: %s", mysql.ErrInvalidConn, fmt.Sprintf(format, args...)))
}

// start begins a command packet in c.out.
func (c *Conn) start(cmd byte) []byte {
	return append(c.out[:0], 0, 0, 0, 0, cmd)
}

// send writes the command in b (4 header bytes reserved) as one or more
// packets starting at sequence id 0.
func (c *Conn) send(b []byte) error {
	c.out = b[:0] // keep a grown buffer
	if c.r != c.w {
		return c.protocolError("%d unread bytes before a new command", c.w-c.r)
	}
	n := len(b) - 4
	if n < maxPayload {
		b[0], b[1], b[2], b[3] = byte(n), byte(n>>8), byte(n>>16), 0
		c.seq = 1
		if _, err := c.io.Write(b); err != nil {
			return c.fail(err)
		}
		return nil
	}
	// Split into 16 MiB - 1 chunks; an exact multiple ends with an empty packet.
	payload := b[4:]
	var seq byte
	for {
		k := min(len(payload), maxPayload)
		hdr := [4]byte{byte(k), byte(k >> 8), byte(k >> 16), seq}
		if _, err := c.io.Write(hdr[:]); err != nil {
			return c.fail(err)
		}
		if _, err := c.io.Write(payload[:k]); err != nil {
			return c.fail(err)
		}
		seq++
		payload = payload[k:]
		if k < maxPayload {
			break
		}
	}
	c.seq = seq
	return nil
}

// fill makes at least need unread bytes available in c.buf.
func (c *Conn) fill(need int) error {
	if c.w-c.r >= need {
		return nil
	}
	if c.r == c.w {
		c.r, c.w = 0, 0
	} else if len(c.buf)-c.r < need {
		c.w = copy(c.buf, c.buf[c.r:c.w])
		c.r = 0
	}
	if need > len(c.buf) {
		nb := make([]byte, max(need, 2*len(c.buf)))
		c.w = copy(nb, c.buf[c.r:c.w])
		c.r = 0
		c.buf = nb
	}
	for c.w-c.r < need {
		n, err := c.io.Read(c.buf[c.w:])
		c.w += n
		if err != nil {
			if c.w-c.r >= need {
				break
			}
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return c.fail(err)
		}
	}
	return nil
}

// outOfSequence is the error of a packet of n bytes with sequence id seq
// where c.seq was expected: the server's own error when the packet is an
// ERR (a server closing an idle session sends one unsolicited, sequence 0:
// MySQL 4031, "disconnected by the server because of inactivity"; so does
// go-sql-driver), else a protocol error. Either way the session is closed.
func (c *Conn) outOfSequence(seq byte, n int) error {
	if n > 0 && n < maxPayload && c.fill(4+n) == nil && c.buf[c.r+4] == 0xff {
		p := c.buf[c.r+4 : c.r+4+n]
		c.r += 4 + n
		return c.fail(serverError(p))
	}
	return c.protocolError("packet sequence %d, expected %d", seq, c.seq)
}

// readPacket returns the next packet's payload. It stays valid until the
// next read.
func (c *Conn) readPacket() ([]byte, error) {
	if c.err != nil {
		return nil, ErrBroken
	}
	if err := c.fill(4); err != nil {
		return nil, err
	}
	h := c.buf[c.r : c.r+4]
	n := int(h[0]) | int(h[1])<<8 | int(h[2])<<16
	if h[3] != c.seq {
		return nil, c.outOfSequence(h[3], n)
	}
	c.seq++
	if n == 0 {
		// Only the last piece of a 16 MiB payload may be empty.
		return nil, c.protocolError("empty packet")
	}
	if err := c.fill(4 + n); err != nil {
		return nil, err
	}
	p := c.buf[c.r+4 : c.r+4+n]
	c.r += 4 + n
	if n < maxPayload {
		return p, nil
	}
	c.big = append(c.big[:0], p...)
	for n == maxPayload {
		if err := c.fill(4); err != nil {
			return nil, err
		}
		h := c.buf[c.r : c.r+4]
		n = int(h[0]) | int(h[1])<<8 | int(h[2])<<16
		if h[3] != c.seq {
			return nil, c.protocolError("packet sequence %d, expected %d", h[3], c.seq)
		}
		c.seq++
		if err := c.fill(4 + n); err != nil {
			return nil, err
		}
		c.big = append(c.big, c.buf[c.r+4:c.r+4+n]...)
		c.r += 4 + n
	}
	return c.big, nil
}

// SimpleExec runs a statement without arguments or result (BEGIN, COMMIT,
// ROLLBACK, SET ...) with COM_QUERY and returns rows affected.
func (c *Conn) SimpleExec(query string) (int64, error) {
	if err := c.usable(); err != nil {
		return 0, err
	}
	b := c.start(comQuery)
	b = append(b, query...)
	if err := c.send(b); err != nil {
		return 0, err
	}
	n, err := c.readOK()
	if err == nil {
		err = c.moreResults()
	}
	return n, err
}

// Close releases the session's server-side statements (COM_STMT_CLOSE has
// no response) and gives the socket back to its owner; it does not close
// the socket unless the session already failed.
func (c *Conn) Close() error {
	if c.err != nil || len(c.stmts) == 0 {
		c.stmts = nil
		return nil
	}
	b := c.out[:0]
	for _, s := range c.stmts {
		b = append(b, 5, 0, 0, 0, comStmtClose)
		b = binary.LittleEndian.AppendUint32(b, s.id)
		s.c = nil
	}
	c.stmts = nil
	if _, err := c.io.Write(b); err != nil {
		return c.fail(err)
	}
	return nil
}
