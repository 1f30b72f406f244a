//go:build linux

package monitor

import (
	"syscall"
	"unsafe"
)

// readProcFile reads the small file at path (NUL-terminated: the last
// byte is 0 and not part of the name) into buf, growing it when the file
// is longer, and returns the contents. It uses the system calls directly:
// os.Open allocates a File and registers it with the runtime's poller,
// which at 2048 PostgreSQL backends read twice a second adds up
// (TestLocalProcsReadAllocations).
func readProcFile(path []byte, buf *[]byte) ([]byte, error) {
	fd, err := openProcFile(path)
	if err != nil {
		return nil, err
	}
	defer closeProcFile(fd)
	return preadProcFile(fd, buf)
}

// openProcFile opens the file at path (NUL-terminated) for reading.
func openProcFile(path []byte) (int, error) {
	fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, atFDCWD, uintptr(unsafe.Pointer(unsafe.SliceData(path))),
		uintptr(syscall.O_RDONLY|syscall.O_CLOEXEC), 0, 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(fd), nil
}

// preadProcFile reads the whole file behind fd from its start into buf,
// growing it when the file is longer. A /proc file read again from offset
// 0 is generated anew: a kept descriptor gives the process's current
// figures, and fails (ESRCH) once the process is gone. A read that does
// not fill the buffer has the whole file (a /proc file is generated in
// one piece and a shorter read means its end), so a stat line costs one
// system call, not a second one to find the end: each call generates the
// file again in the kernel.
func preadProcFile(fd int, buf *[]byte) ([]byte, error) {
	b := *buf
	n := 0
	for {
		m, err := syscall.Pread(fd, b[n:], int64(n))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if m < len(b)-n {
			*buf = b
			return b[:n+m], nil
		}
		n += m
		if n == len(b) {
			b = append(b, make([]byte, len(b))...)
		}
	}
}

func closeProcFile(fd int) { _ = syscall.Close(fd) }

// procFDBudget is how many descriptors the process watch may keep open: a
// quarter of the soft limit on open files (the rest for the terminals'
// sockets and everything else), at most 4096 (2048 processes).
func procFDBudget() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0
	}
	return int(min(rl.Cur/4, 4096))
}

// atFDCWD is AT_FDCWD (-100) as the system call's argument: a relative
// path is taken from the working directory.
var atFDCWD = func() uintptr { v := -100; return uintptr(v) }()
