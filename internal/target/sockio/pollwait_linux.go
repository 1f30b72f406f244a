//go:build linux

package sockio

import (
	"errors"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// setReadSlice sets the socket's receive timeout: ReadSlice when long
// waits park in the poller (WaitPolicy.ParkLong), else Slice (Detach's).
func (c *Conn) setReadSlice(park bool) {
	d := Slice
	if park {
		d = ReadSlice
	}
	tv := syscall.NsecToTimeval(d.Nanoseconds())
	_ = syscall.SetsockoptTimeval(c.fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
}

// pollWait parks the calling goroutine in the runtime's poller until the
// socket is readable, reaches its end (Close's shutdown included) or the
// read deadline passes; the caller's read loop then reads or reports.
//
// A read that has found no data for ReadSlice ends here
// (WaitPolicy.ParkLong): a thread that stays blocked in a raw read keeps its
// P and looks busy to the runtime, which then interrupts it with a
// preemption signal every 10-20 ms (at 128 MariaDB TPC-C terminals on 2
// vCPUs, 5,000 signals a second and up to 40 % of the client's CPU per
// transaction, docs/benchmarks.md "2026-11-26 (18:00)"). Parked, the
// goroutine costs nothing until its reply comes.
//
// The wait registers a duplicate descriptor with the poller for the wait
// only (a socket that stays in the epoll set would wake the poller's
// thread for every reply of every terminal). The duplicate shares the
// socket's file description, so the description is non-blocking during
// the wait and blocking again after it; the wait's own readiness test
// peeks (MSG_PEEK|MSG_DONTWAIT), so the data stays for the read.
func (c *Conn) pollWait() error {
	d, err := dupCloexec(c.fd)
	if err != nil {
		return err
	}
	if err := syscall.SetNonblock(d, true); err != nil {
		closeFD(d)
		return err
	}
	f := os.NewFile(uintptr(d), "sockio") // non-blocking: registered with the poller
	// A deadline set while the goroutine is parked (a context's
	// cancellation) reaches the wait through c.waiting: either the load
	// below sees the new deadline or the setter sees the file. A write
	// meanwhile sees it too and waits for room rather than spin on the
	// non-blocking description (Write), until the description blocks again.
	c.waiting.Store(f)
	defer func() {
		_ = f.Close()
		_ = syscall.SetNonblock(c.fd, false)
		c.waiting.Store(nil)
	}()
	if ns := c.rdl.Load(); ns != 0 {
		_ = f.SetReadDeadline(time.Unix(0, ns))
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var b [1]byte
	err = rc.Read(func(fd uintptr) bool {
		_, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&b[0])), 1, syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
		return e != syscall.EAGAIN
	})
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return nil // the read loop reports its deadline
	}
	return err
}

// wakeWait applies a new read deadline to a wait in progress.
func (c *Conn) wakeWait(t time.Time) {
	if f := c.waiting.Load(); f != nil {
		_ = f.SetReadDeadline(t)
	}
}

// waitWritable blocks the thread until fd has room to write, for at most
// Slice (a deadline and Close are looked at again after it).
func waitWritable(fd int) {
	pfd := struct {
		fd             int32
		events, revent int16
	}{int32(fd), 0x4 /* POLLOUT */, 0}
	ts := syscall.NsecToTimespec(Slice.Nanoseconds())
	syscall.RawSyscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
}
