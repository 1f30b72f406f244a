//go:build linux

package sockio

import (
	"fmt"
	"io"
	"net"
	"runtime"
	"syscall"
	"unsafe"
)

// Supported reports whether Detach can take sockets over here.
const Supported = true

// Detach takes nc (a *net.TCPConn or *net.UnixConn) out of the runtime's
// poller and returns the Conn that owns its socket from now on; nc is
// closed. On ErrUnsupported nc is untouched.
func Detach(nc net.Conn) (*Conn, error) {
	switch nc.(type) {
	case *net.TCPConn, *net.UnixConn:
	default:
		return nil, ErrUnsupported
	}
	rc, err := nc.(syscall.Conn).SyscallConn()
	if err != nil {
		return nil, ErrUnsupported
	}
	fd := -1
	var derr error
	if err := rc.Control(func(s uintptr) { fd, derr = dupCloexec(int(s)) }); err != nil {
		return nil, fmt.Errorf("sockio: %w", err)
	}
	if derr != nil {
		return nil, fmt.Errorf("sockio: dup: %w", derr)
	}
	c := &Conn{fd: fd, laddr: nc.LocalAddr(), raddr: nc.RemoteAddr()}
	// Closing the original removes it from the epoll set (the runtime
	// deletes it explicitly); the duplicate shares the open socket.
	_ = nc.Close()
	tv := syscall.NsecToTimeval(Slice.Nanoseconds())
	if err := syscall.SetNonblock(fd, false); err != nil {
		closeFD(fd)
		return nil, fmt.Errorf("sockio: blocking mode: %w", err)
	}
	for _, opt := range []int{syscall.SO_RCVTIMEO, syscall.SO_SNDTIMEO} {
		if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, opt, &tv); err != nil {
			closeFD(fd)
			return nil, fmt.Errorf("sockio: socket timeout: %w", err)
		}
	}
	return c, nil
}

func dupCloexec(fd int) (int, error) {
	r, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, 0)
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}

func shutdown(fd int) { _ = syscall.Shutdown(fd, syscall.SHUT_RDWR) }
func closeFD(fd int)  { _ = syscall.Close(fd) }

// Read reads into p, blocking the calling thread until data, end of stream
// (io.EOF), the deadline or Close.
func (c *Conn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if !c.enter() {
		return 0, c.opErr("read", net.ErrClosed)
	}
	defer c.leave()
	if c.rdl.Load() != 0 {
		if err := c.expired("read", &c.rdl); err != nil {
			return 0, err
		}
	}
	if c.wait.YieldFirst {
		n, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, uintptr(c.fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)), syscall.MSG_DONTWAIT, 0, 0)
		if e == 0 && n > 0 {
			return int(n), nil
		}
		if e == syscall.EAGAIN {
			syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0)
		}
		// Anything else (end of stream, an error, a signal): the
		// blocking read below sees it again and answers for it.
	}
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(c.fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
		switch e {
		case 0:
			if n == 0 {
				if c.state.Load()&1 != 0 { // woken by Close's shutdown
					return 0, c.opErr("read", net.ErrClosed)
				}
				return 0, io.EOF
			}
			return int(n), nil
		case syscall.EINTR:
			// A signal: most often the runtime asking this goroutine to
			// yield (preemption, a stop-the-world for the GC). The
			// request is served at the first call's stack check, this
			// one or any other (a yield that wakes a thread for an idle
			// P); reading again without a call only leaves it pending,
			// and the runtime signals again 10 ms later
			// (docs/benchmarks.md, "2026-11-27 (22:40)").
			runtime.Gosched()
		case syscall.EAGAIN: // a slice without data
			if c.wait.ParkLong {
				if err := c.pollWait(); err != nil {
					return 0, c.opErr("read", err)
				}
			}
		default:
			return 0, c.opErr("read", e)
		}
		if err := c.expired("read", &c.rdl); err != nil {
			return 0, err
		}
	}
}

// Write writes all of p, blocking the calling thread while the socket's
// send buffer is full.
func (c *Conn) Write(p []byte) (int, error) {
	if !c.enter() {
		return 0, c.opErr("write", net.ErrClosed)
	}
	defer c.leave()
	if c.wdl.Load() != 0 {
		if err := c.expired("write", &c.wdl); err != nil {
			return 0, err
		}
	}
	done := 0
	for done < len(p) {
		q := p[done:]
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(c.fd), uintptr(unsafe.Pointer(unsafe.SliceData(q))), uintptr(len(q)))
		switch e {
		case 0:
			done += int(n)
			continue
		case syscall.EINTR:
			runtime.Gosched()
		case syscall.EAGAIN:
			// A slice without room, or (while a read waits parked, the
			// description non-blocking: pollWait) no room at once:
			// wait for room in the thread rather than spin.
			if c.waiting.Load() != nil {
				waitWritable(c.fd)
			}
		default:
			return done, c.opErr("write", e)
		}
		if err := c.expired("write", &c.wdl); err != nil {
			return done, err
		}
	}
	return done, nil
}

// SyscallConn exposes the descriptor for checks that expect a non-blocking
// socket (go-sql-driver's liveness check reads it expecting EAGAIN): Read
// and Write run f with the socket switched to non-blocking mode.
func (c *Conn) SyscallConn() (syscall.RawConn, error) { return rawConn{c}, nil }

type rawConn struct{ c *Conn }

func (r rawConn) Control(f func(fd uintptr)) error {
	if !r.c.enter() {
		return r.c.opErr("raw-control", net.ErrClosed)
	}
	defer r.c.leave()
	f(uintptr(r.c.fd))
	return nil
}

func (r rawConn) Read(f func(fd uintptr) bool) error  { return r.nonblocking("raw-read", f) }
func (r rawConn) Write(f func(fd uintptr) bool) error { return r.nonblocking("raw-write", f) }

// nonblocking calls f once in non-blocking mode; f's "not done" answer is
// reported as EAGAIN rather than waited out (nothing polls this socket).
func (r rawConn) nonblocking(op string, f func(fd uintptr) bool) error {
	if !r.c.enter() {
		return r.c.opErr(op, net.ErrClosed)
	}
	defer r.c.leave()
	if err := syscall.SetNonblock(r.c.fd, true); err != nil {
		return r.c.opErr(op, err)
	}
	done := f(uintptr(r.c.fd))
	if err := syscall.SetNonblock(r.c.fd, false); err != nil {
		return r.c.opErr(op, err)
	}
	if !done {
		return r.c.opErr(op, syscall.EAGAIN)
	}
	return nil
}
