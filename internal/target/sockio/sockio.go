// Package sockio gives a benchmark terminal the round trip a C client has:
// the terminal's thread blocks in read(2) on its own socket and the kernel
// wakes exactly that thread when the reply arrives.
//
// Through Go's network poller a reply takes a detour: the socket is
// registered with the runtime's epoll set, so the reply first wakes
// whichever thread sleeps in epoll_wait, which then makes the terminal's
// goroutine runnable and often wakes a second thread to run it. On a
// machine whose cores are shared with the server those extra wake-ups and
// context switches are the client's overhead: measured at 2 threads of
// oltp_point_select on MariaDB (2 vCPUs, docs/benchmarks.md), 2.3x
// sysbench's client CPU per query and 45 % of its throughput.
//
// Detach takes a dialed TCP or Unix socket out of the poller (its
// descriptor is duplicated and the original closed, which removes it from
// the epoll set) and returns a Conn that reads and writes the duplicate in
// blocking mode with raw system calls: the runtime does not see the wait,
// so no processor is handed off and no monitor thread wakes (a goroutine
// waiting in a raw call keeps its P: callers size GOMAXPROCS to the
// terminals, see cmd/benchpress/process.go). Socket timeouts of Slice
// (SO_RCVTIMEO/SO_SNDTIMEO) bound every wait, so that deadlines, Close and
// the runtime's preemption (a signal then interrupts the call with EINTR
// instead of restarting it) are honoured within a slice. For round trips
// that can take long (WaitPolicy.ParkLong) a read blocks in its thread for
// at most ReadSlice and waits on parked in the runtime's poller (pollWait),
// where a long wait costs nothing, instead of in a thread the runtime sees
// busy and interrupts with a preemption signal every 10-20 ms. The poller
// stays the right model for thousands of terminals; the caller chooses.
package sockio

import (
	"errors"
	"io"
	"net"
	"os"
	"sync/atomic"
	"time"
)

// Slice is the longest a blocked read or write waits before it looks at
// its deadline and at Close again.
const Slice = 50 * time.Millisecond

// ReadSlice is the longest a read of a Conn that parks long waits
// (WaitPolicy.ParkLong) waits blocked in its thread; a reply that takes
// longer is waited for in the runtime's poller. Below the
// runtime's forced preemption (a goroutine 10 ms without a pass through
// the scheduler is interrupted by a signal), above the round trips the
// blocking read is for (TPC-C's statements on 2 vCPUs: mostly 0.05-2 ms).
const ReadSlice = 3 * time.Millisecond

// Conn is a socket read and written in blocking mode (see the package
// comment). It implements net.Conn: deadlines, Close from another
// goroutine and concurrent Read and Write behave as on a *net.TCPConn,
// except that a deadline or Close is noticed within Slice.
type Conn struct {
	fd     int
	laddr  net.Addr
	raddr  net.Addr
	state  atomic.Int64 // calls in flight << 1 | closed
	fdDone atomic.Bool  // the descriptor has been closed
	rdl    atomic.Int64 // read deadline, Unix ns; 0 = none
	wdl    atomic.Int64 // write deadline
	// wait is how a read waits for data that has not come (SetWaitPolicy).
	wait WaitPolicy
	// waiting is the poller's file while a read waits there (pollWait).
	waiting atomic.Pointer[os.File]
}

// ErrUnsupported is returned by Detach for sockets it cannot take over
// (not TCP or Unix, or a platform without blocking raw I/O); the socket is
// left as it was.
var ErrUnsupported = errors.New("sockio: socket cannot be detached from the poller")

// RawIO returns c itself: Conn already does what mywire.RawIO provides.
func (c *Conn) RawIO() io.ReadWriter { return c }

// LocalAddr and RemoteAddr are those of the socket Detach took over.
func (c *Conn) LocalAddr() net.Addr  { return c.laddr }
func (c *Conn) RemoteAddr() net.Addr { return c.raddr }

// SetDeadline sets the read and write deadlines.
func (c *Conn) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.SetWriteDeadline(t)
}

// SetReadDeadline bounds pending and future reads; the zero time removes
// the bound. A read past it returns an error wrapping
// os.ErrDeadlineExceeded (a net.Error with Timeout() true).
func (c *Conn) SetReadDeadline(t time.Time) error {
	if err := c.setDeadline(&c.rdl, t); err != nil {
		return err
	}
	c.wakeWait(t)
	return nil
}

// SetWriteDeadline is SetReadDeadline for writes.
func (c *Conn) SetWriteDeadline(t time.Time) error { return c.setDeadline(&c.wdl, t) }

func (c *Conn) setDeadline(d *atomic.Int64, t time.Time) error {
	if c.state.Load()&1 != 0 {
		return c.opErr("set deadline", net.ErrClosed)
	}
	var ns int64
	if !t.IsZero() {
		ns = max(t.UnixNano(), 1)
	}
	d.Store(ns)
	return nil
}

// enter registers a call in flight; false when the socket is closed.
func (c *Conn) enter() bool {
	if c.state.Add(2)&1 != 0 {
		c.leave()
		return false
	}
	return true
}

// leave ends a call; the last call out of a closed socket closes the
// descriptor, so that no call can touch a number the kernel has reused.
func (c *Conn) leave() {
	if c.state.Add(-2) == 1 {
		c.closeFD()
	}
}

// Close wakes every blocked call (shutdown) and closes the descriptor once
// none is in flight. Close holds a reference of its own through the
// shutdown: else the calls in flight could all leave between the closed
// bit and the shutdown, the last one closing the descriptor, and the
// shutdown would hit whatever socket reused its number.
func (c *Conn) Close() error {
	c.state.Add(2)
	if c.state.Or(1)&1 != 0 {
		c.leave()
		return c.opErr("close", net.ErrClosed)
	}
	shutdown(c.fd)
	c.leave() // the last one out closes the descriptor
	return nil
}

func (c *Conn) closeFD() {
	if c.fdDone.CompareAndSwap(false, true) {
		closeFD(c.fd)
	}
}

// expired returns the error ending a wait: the socket was closed or the
// deadline d passed.
func (c *Conn) expired(op string, d *atomic.Int64) error {
	if c.state.Load()&1 != 0 {
		return c.opErr(op, net.ErrClosed)
	}
	if ns := d.Load(); ns != 0 && time.Now().UnixNano() >= ns {
		return c.opErr(op, os.ErrDeadlineExceeded)
	}
	return nil
}

func (c *Conn) opErr(op string, err error) error {
	return &net.OpError{Op: op, Net: c.raddr.Network(), Source: c.laddr, Addr: c.raddr, Err: err}
}
