//go:build linux

package mywire

import (
	"io"
	"syscall"
	"unsafe"
)

// On Linux, the socket is read and written with raw system calls from
// inside the poller's callbacks (syscall.RawConn). The socket is
// non-blocking, so neither call can block; what the raw form saves is the
// scheduler's syscall bookkeeping: a write to a loopback server runs the
// receiver's TCP path and can take tens of microseconds, long enough for
// the runtime's monitor to hand the goroutine's processor to another thread
// (a futex wake-up and a context switch per statement). When the call would
// block (EAGAIN), the poller parks the goroutine as net.Conn does.

type rawIO struct {
	rc   syscall.RawConn
	p    []byte
	n    int
	err  error
	read func(fd uintptr) bool
	writ func(fd uintptr) bool
}

func newRawIO(nc any) *rawIO {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	r := &rawIO{rc: rc}
	r.read = r.doRead
	r.writ = r.doWrite
	return r
}

func (r *rawIO) doRead(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(unsafe.SliceData(r.p))), uintptr(len(r.p)))
		switch e {
		case 0:
			r.n = int(n)
			if n == 0 {
				r.err = io.EOF
			}
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		r.err = e
		return true
	}
}

func (r *rawIO) doWrite(fd uintptr) bool {
	for len(r.p) > 0 {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(unsafe.SliceData(r.p))), uintptr(len(r.p)))
		switch e {
		case 0:
			r.n += int(n)
			r.p = r.p[n:]
			continue
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		r.err = e
		return true
	}
	return true
}

// Read reads into p; at the end of the stream it returns io.EOF, as
// net.Conn does.
func (r *rawIO) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.p, r.n, r.err = p, 0, nil
	err := r.rc.Read(r.read)
	r.p = nil
	if err == nil {
		err = r.err
	}
	return r.n, err
}

// Write writes all of p.
func (r *rawIO) Write(p []byte) (int, error) {
	r.p, r.n, r.err = p, 0, nil
	err := r.rc.Write(r.writ)
	r.p = nil
	if err == nil {
		err = r.err
	}
	return r.n, err
}
