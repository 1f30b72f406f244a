package target

import (
	"context"
	"fmt"
	"net"
	"sync/atomic"

	"benchpress/internal/target/sockio"
)

// SocketIO chooses how sessions wait for the server's replies.
type SocketIO int

const (
	// SocketAuto is blocking sockets for runs of up to BlockingTerminalsMax
	// terminals and the poller above (Connector.WantsBlocking decides).
	SocketAuto SocketIO = iota
	// SocketPoller leaves sockets with Go's network poller: one thread
	// serves many waiting sessions (thousands of terminals).
	SocketPoller
	// SocketBlocking gives every session's socket blocking reads on the
	// session's own thread (sockio), as a C client has.
	SocketBlocking
)

// BlockingTerminalsMax is the largest run SocketAuto gives blocking
// sockets: each waiting terminal holds an OS thread and a runtime P, and
// above a few hundred the poller's multiplexing costs less than that many
// threads (measured on the ladder of bench/sysbench-vs.sh).
const BlockingTerminalsMax = 256

var socketIONames = [...]string{"auto", "poller", "blocking"}

func (s SocketIO) String() string {
	if s >= 0 && int(s) < len(socketIONames) {
		return socketIONames[s]
	}
	return "auto"
}

// ParseSocketIO parses auto, poller or blocking.
func ParseSocketIO(v string) (SocketIO, error) {
	for i, n := range socketIONames {
		if v == n {
			return SocketIO(i), nil
		}
	}
	if v == "" {
		return SocketAuto, nil
	}
	return SocketAuto, fmt.Errorf("%q: use auto, blocking or poller", v)
}

// socketMode is the Connector's current choice, read by the backends'
// dial functions at every connect.
type socketMode struct {
	blocking atomic.Bool
	detached atomic.Int64 // sessions given blocking sockets so far
}

// wrap returns nc detached from the poller when blocking sockets are on
// and the socket allows it, else nc.
func (m *socketMode) wrap(nc net.Conn) net.Conn {
	if m == nil || !m.blocking.Load() {
		return nc
	}
	if c, err := sockio.Detach(nc); err == nil {
		m.detached.Add(1)
		return c
	}
	return nc
}

// dial opens a TCP or Unix connection as net.Dialer does and applies the
// socket mode.
func (m *socketMode) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return m.wrap(nc), nil
}

// SetBlockingSockets chooses blocking sockets (on) or the poller for the
// sessions opened from now on; idle pooled sessions of the other kind are
// closed. A run turns them on for its terminals (WantsBlocking) and off
// when it ends: checks and loads use few sessions and default GOMAXPROCS.
// A session blocked in a read keeps its P: callers give the run a P per
// terminal (see sockio).
func (c *Connector) SetBlockingSockets(on bool) {
	on = on && sockio.Supported && c.target.Kind != SQLite
	if c.sockets.blocking.Swap(on) != on {
		if d, ok := c.backend.(idleDropper); ok {
			d.dropIdle()
		}
	}
}

// BlockingSessions counts the sessions opened with blocking sockets since
// the Connector was made (a run reports how its terminals waited).
func (c *Connector) BlockingSessions() int64 { return c.sockets.detached.Load() }

// idleDropper is a backend that keeps idle sessions (database/sql's pool):
// they were opened in the previous socket mode and must not serve the next
// run.
type idleDropper interface{ dropIdle() }

// WantsBlocking reports whether a run of that many terminals should use
// blocking sockets (Options.SocketIO; auto: up to BlockingTerminalsMax)
// and the platform and target allow them.
func (c *Connector) WantsBlocking(terminals int) bool {
	b := false
	switch c.opts.SocketIO {
	case SocketBlocking:
		b = true
	case SocketAuto:
		b = terminals <= BlockingTerminalsMax
	}
	return b && sockio.Supported && c.target.Kind != SQLite
}
