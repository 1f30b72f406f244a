package target

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync/atomic"

	"benchpress/internal/target/sockio"
)

// SocketIO chooses how sessions wait for the server's replies.
type SocketIO int

const (
	// SocketAuto is blocking sockets for runs of up to BlockingMax
	// terminals and the poller above (Connector.WantsBlocking decides).
	SocketAuto SocketIO = iota
	// SocketPoller leaves sockets with Go's network poller: one thread
	// serves many waiting sessions (thousands of terminals).
	SocketPoller
	// SocketBlocking gives every session's socket blocking reads on the
	// session's own thread (sockio), as a C client has.
	SocketBlocking
)

// BlockingMax is the largest run SocketAuto gives blocking sockets, on
// every server; larger runs use the poller. A blocked terminal holds an
// OS thread and a runtime P, and the runtime preempts with a signal every
// terminal that has not passed through its scheduler for 10 ms; thousands
// of terminals (TPC-C's 2048) are served by the poller's few threads.
// Up to 256 blocking sockets give the C client's shape: MariaDB's point
// selects cost 1.6-1.8x the client CPU through the poller at the same TPS
// (docs/benchmarks.md, "2026-11-24 (night)"). PostgreSQL used the poller
// above 8 terminals per CPU from then (busier Intel hosts: higher TPS, and
// less client CPU per TPC-C transaction before TPC-C's reads yielded and
// parked long waits). Measured again on 2 vCPUs shared with the server, 4
// rotating rounds of sysbench, auto and blocking ("2026-11-29 (00:40)"):
// the poller's point selects ran in bursts (p50 0.04 ms against
// sysbench's 0.75-12) with p99 1.80x and 1.48x sysbench's at 32 and 64
// terminals, where blocking sockets kept sysbench's shape at every step
// from 16 to 256 (TPS 0.98-1.08, p99 0.84-1.10); read_write passed both
// ways up to 128; TPC-C's client CPU per transaction through blocking
// sockets was 13-15 sysbench point selects at 32 terminals and 10-11 at
// 128 (the poller 8-12; target <= 24).
const BlockingMax = 256

// SharedYield reports whether a run of terminals on blocking sockets that
// share the load machine's cpus (more terminals than CPUs) should give
// every terminal exactly a P and let it yield to Go's scheduler between
// transactions (runner.Config.YieldEvery) rather than keep spare Ps and be
// preempted by the runtime every 10 ms. Measured on 2 vCPUs with the
// server on the same machine, interleaved (docs/benchmarks.md, 2026-11-25
// night): PostgreSQL oltp_read_write TPS +8 to +21 % and p99 -25 to -30 %
// at 4, 8 and 16 terminals (at 8, 1,094 -> 1,183 TPS and 16.8 -> 12.4 ms,
// sysbench 1,269 and 10.7), oltp_point_select +7 % at 4, within the scatter
// at 8 and -12 % at 16 (the trade-off taken); MariaDB point select -22 %
// and read_write -15 % TPS at 8 (its preempted terminals beat sysbench
// there), so MySQL keeps the preemption.
func SharedYield(kind Kind, terminals, cpus int) bool { return kind == Postgres && terminals > cpus }

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
	wait     atomic.Pointer[sockio.WaitPolicy] // for new sockets; nil = zero
	detached atomic.Int64                      // sessions given blocking sockets so far
}

// wrap returns nc detached from the poller when blocking sockets are on
// and the socket allows it, else nc. Detach closes nc before it sets the
// new descriptor up: any failure but ErrUnsupported (nc untouched) leaves
// no usable socket, and is the dial's error.
func (m *socketMode) wrap(nc net.Conn) (net.Conn, error) {
	if m == nil || !m.blocking.Load() {
		return nc, nil
	}
	c, err := sockio.Detach(nc)
	switch {
	case errors.Is(err, sockio.ErrUnsupported):
		return nc, nil
	case err != nil:
		_ = nc.Close() // closed already unless dup failed
		return nil, fmt.Errorf("blocking socket: %w", err)
	}
	if p := m.wait.Load(); p != nil {
		c.SetWaitPolicy(*p)
	}
	m.detached.Add(1)
	return c, nil
}

// dial opens a TCP or Unix connection as net.Dialer does and applies the
// socket mode.
func (m *socketMode) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return m.wrap(nc)
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

// SetWaitPolicy sets how the blocking sockets opened from now on wait for
// a reply (sockio.WaitPolicy): a run yields before a wait for terminals
// that share the cores (SharedYield) and parks long waits in the poller
// for workloads with long round trips (workload.LongRoundTrips).
func (c *Connector) SetWaitPolicy(p sockio.WaitPolicy) { c.sockets.wait.Store(&p) }

// BlockingSessions counts the sessions opened with blocking sockets since
// the Connector was made (a run reports how its terminals waited).
func (c *Connector) BlockingSessions() int64 { return c.sockets.detached.Load() }

// idleDropper is a backend that keeps idle sessions (database/sql's pool):
// they were opened in the previous socket mode and must not serve the next
// run.
type idleDropper interface{ dropIdle() }

// WantsBlocking reports whether a run of that many terminals should use
// blocking sockets (Options.SocketIO; auto: up to BlockingMax) and the
// platform and target allow them.
func (c *Connector) WantsBlocking(terminals int) bool {
	b := false
	switch c.opts.SocketIO {
	case SocketBlocking:
		b = true
	case SocketAuto:
		b = terminals <= BlockingMax
	}
	return b && sockio.Supported && c.target.Kind != SQLite
}
