package target

import (
	"context"
	"database/sql"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"

	"benchpress/internal/target/mywire"
)

// mysqlSocket is the socket go-sql-driver dials through: it passes
// everything through and records, from the client's first packet (the
// handshake response), the capabilities the session negotiated, which the
// hot-path client (mywire) needs to read result sets.
type mysqlSocket struct {
	net.Conn
	io      io.ReadWriter // Conn, through raw system calls (mywire.RawIO)
	caps    mywire.Caps
	sniffed bool // first client packet seen
	capsOK  bool // and it was a handshake response
	// onClose drops the pool's record of the socket (netConns), set when
	// it is recorded.
	onClose atomic.Pointer[func()]
}

// Close closes the socket and drops netConns' record of it: however the
// driver discards the connection (an idle one dropped, a bad connection, a
// lost session on the driver path), the record does not outlive it and
// pin the connection's buffers.
func (s *mysqlSocket) Close() error {
	if f := s.onClose.Swap(nil); f != nil {
		(*f)()
	}
	return s.Conn.Close()
}

func (s *mysqlSocket) Write(p []byte) (int, error) {
	if !s.sniffed {
		s.sniffed = true
		if len(p) > 4 {
			s.caps, s.capsOK = mywire.CapsFromHandshakeResponse(p[4:])
		}
	}
	return s.io.Write(p)
}

// Read reads with raw system calls, like Write; the driver's statements
// (text mode, one-off statements) then cost the scheduler as little as the
// protocol client's.
func (s *mysqlSocket) Read(p []byte) (int, error) { return s.io.Read(p) }

// RawIO is the socket's reader/writer without the sniffing (mywire.RawIO).
func (s *mysqlSocket) RawIO() io.ReadWriter { return s.io }

// SyscallConn keeps go-sql-driver's liveness check of pooled connections.
func (s *mysqlSocket) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := s.Conn.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, syscall.EINVAL
}

// netConns remembers the socket of every connection a MySQL backend dialed,
// by driver connection, so that a session taken from the pool again finds
// its socket.
type netConns struct{ m sync.Map } // driver.Conn -> *mysqlSocket

type netSlotKey struct{}

// netSlot receives the socket dialed while opening one connection.
type netSlot struct{ s *mysqlSocket }

func (m *socketMode) dialRecording(ctx context.Context, network, addr string) (net.Conn, error) {
	nc, err := m.dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	s := &mysqlSocket{Conn: nc, io: mywire.RawIO(nc)}
	if slot, ok := ctx.Value(netSlotKey{}).(*netSlot); ok && slot.s == nil {
		slot.s = s
	}
	return s, nil
}

// socketOf returns the socket of c: the one just dialed (slot) or the one
// recorded when the pooled connection was opened.
func (n *netConns) socketOf(c *sql.Conn, slot *netSlot) *mysqlSocket {
	var s *mysqlSocket
	_ = c.Raw(func(dc any) error {
		if slot.s != nil {
			n.m.Store(dc, slot.s)
			forget := func() { n.m.Delete(dc) }
			slot.s.onClose.Store(&forget)
			s = slot.s
			return nil
		}
		if v, ok := n.m.Load(dc); ok {
			s = v.(*mysqlSocket)
		}
		return nil
	})
	return s
}

// forget drops the record of a connection that is being discarded.
func (n *netConns) forget(c *sql.Conn) {
	_ = c.Raw(func(dc any) error {
		n.m.Delete(dc)
		return nil
	})
}
