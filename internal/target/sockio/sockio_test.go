//go:build linux

package sockio

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pair returns a detached client socket and the server's end of a
// loopback TCP connection.
func pair(t *testing.T) (*Conn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	acc := make(chan net.Conn, 1)
	go func() {
		s, err := ln.Accept()
		if err != nil {
			close(acc)
			return
		}
		acc <- s
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c, err := Detach(nc)
	if err != nil {
		t.Fatalf("Detach: %v", err)
	}
	srv, ok := <-acc
	if !ok {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { c.Close(); srv.Close() })
	return c, srv
}

func TestRoundTrip(t *testing.T) {
	c, srv := pair(t)
	go func() {
		buf := make([]byte, 64)
		for {
			n, err := srv.Read(buf)
			if err != nil {
				return
			}
			if _, err := srv.Write(buf[:n]); err != nil {
				return
			}
		}
	}()
	for i := range 100 {
		msg := []byte("ping " + strconv.Itoa(i))
		if n, err := c.Write(msg); err != nil || n != len(msg) {
			t.Fatalf("write: %d, %v", n, err)
		}
		got := make([]byte, len(msg))
		if _, err := io.ReadFull(c, got); err != nil || string(got) != string(msg) {
			t.Fatalf("read %q, %v; want %q", got, err, msg)
		}
	}
}

// TestLargeWrite writes more than the socket buffers hold while the peer
// reads slowly: Write blocks and finishes with every byte.
func TestLargeWrite(t *testing.T) {
	c, srv := pair(t)
	writeSlowPeer(t, c, srv, 100*time.Millisecond)
}

// writeSlowPeer writes 16 MB to c while srv starts reading after delay, and
// checks every byte arrived.
func writeSlowPeer(t *testing.T, c *Conn, srv net.Conn, delay time.Duration) {
	t.Helper()
	const size = 16 << 20
	done := make(chan int64)
	go func() {
		time.Sleep(delay)
		n, _ := io.Copy(io.Discard, io.LimitReader(srv, size))
		done <- n
	}()
	n, err := c.Write(make([]byte, size))
	if err != nil || n != size {
		t.Fatalf("write %d, %v", n, err)
	}
	if got := <-done; got != size {
		t.Fatalf("peer read %d bytes, want %d", got, size)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) && errors.As(err, &ne) && ne.Timeout()
}

func TestDeadlines(t *testing.T) {
	tests := []struct {
		name  string
		set   func(c *Conn)    // before the read
		later func(c *Conn)    // while the read waits
		check func(error) bool // the read's error
		max   time.Duration    // how long the read may take
	}{
		{"past deadline fails at once", func(c *Conn) { c.SetReadDeadline(time.Unix(1, 0)) }, nil, isTimeout, 10 * time.Millisecond},
		{"deadline expires while waiting", func(c *Conn) { c.SetReadDeadline(time.Now().Add(30 * time.Millisecond)) }, nil, isTimeout, 30*time.Millisecond + 2*Slice},
		{"past deadline set by another goroutine", nil, func(c *Conn) { c.SetDeadline(time.Unix(1, 0)) }, isTimeout, 2 * Slice},
		{"close wakes the reader", nil, func(c *Conn) { c.Close() }, func(err error) bool { return errors.Is(err, net.ErrClosed) }, Slice},
	}
	// Parked (WaitPolicy.ParkLong), the read waits in the poller from
	// ReadSlice on: 20 ms into the wait, when later runs, it is there.
	for _, tc := range tests {
		for _, park := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/park=%v", tc.name, park), func(t *testing.T) {
				c, _ := pair(t)
				c.SetWaitPolicy(WaitPolicy{ParkLong: park})
				if tc.set != nil {
					tc.set(c)
				}
				if tc.later != nil {
					time.AfterFunc(20*time.Millisecond, func() { tc.later(c) })
				}
				start := time.Now()
				_, err := c.Read(make([]byte, 8))
				took := time.Since(start)
				if !tc.check(err) {
					t.Fatalf("read error %v (%T)", err, err)
				}
				if took > tc.max+150*time.Millisecond { // slack for a loaded CI machine
					t.Errorf("read returned after %v, want within %v", took, tc.max)
				}
			})
		}
	}
}

func TestDeadlineClearedKeepsSocket(t *testing.T) {
	c, srv := pair(t)
	c.SetReadDeadline(time.Unix(1, 0))
	if _, err := c.Read(make([]byte, 1)); !isTimeout(err) {
		t.Fatalf("read with past deadline: %v", err)
	}
	c.SetReadDeadline(time.Time{})
	srv.Write([]byte("x"))
	b := make([]byte, 1)
	if _, err := c.Read(b); err != nil || b[0] != 'x' {
		t.Fatalf("read after clearing the deadline: %q %v", b, err)
	}
}

func TestEOFAndClosed(t *testing.T) {
	c, srv := pair(t)
	srv.Close()
	if _, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("read after the peer closed: %v, want io.EOF", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("second close: %v", err)
	}
	if _, err := c.Write([]byte("x")); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("write after close: %v", err)
	}
	if err := c.SetDeadline(time.Now()); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("deadline after close: %v", err)
	}
}

// TestRawConnIsNonBlocking is go-sql-driver's liveness check: one read of
// an idle socket must answer EAGAIN at once, not wait out a slice.
func TestRawConnIsNonBlocking(t *testing.T) {
	c, _ := pair(t)
	rc, err := c.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var rerr error
	var inside uintptr
	err = rc.Read(func(fd uintptr) bool {
		inside, _, _ = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		var b [1]byte
		_, rerr = syscall.Read(int(fd), b[:])
		return true
	})
	if err != nil || rerr != syscall.EAGAIN {
		t.Fatalf("raw read: %v, %v; want EAGAIN", err, rerr)
	}
	if inside&syscall.O_NONBLOCK == 0 {
		t.Errorf("flags inside the raw read %#x: not non-blocking (a liveness check would wait out a slice)", inside)
	}
	// and the socket is blocking again afterwards
	fl, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(c.fd), syscall.F_GETFL, 0)
	if e != 0 || fl&syscall.O_NONBLOCK != 0 {
		t.Fatalf("flags after the raw read %#x (%v): still non-blocking", fl, e)
	}
}

// pollerInodes returns the inodes of the files in the runtime's epoll set.
func pollerInodes(t *testing.T) map[uint64]bool {
	t.Helper()
	ents, _ := os.ReadDir("/proc/self/fd")
	for _, e := range ents {
		if l, _ := os.Readlink("/proc/self/fd/" + e.Name()); l != "anon_inode:[eventpoll]" {
			continue
		}
		info, err := os.ReadFile("/proc/self/fdinfo/" + e.Name())
		if err != nil {
			t.Skip(err)
		}
		inos := map[uint64]bool{}
		for _, line := range strings.Split(string(info), "\n") {
			if !strings.HasPrefix(line, "tfd:") {
				continue
			}
			for _, f := range strings.Fields(line) {
				if v, ok := strings.CutPrefix(f, "ino:"); ok {
					n, _ := strconv.ParseUint(v, 16, 64)
					inos[n] = true
				}
			}
		}
		return inos
	}
	t.Skip("no epoll descriptor in /proc/self/fd")
	return nil
}

// TestOutOfThePoller checks what Detach is for: the runtime's epoll set no
// longer holds the socket (a reply wakes only the reading thread), while a
// socket left with the runtime is listed (the control).
func TestOutOfThePoller(t *testing.T) {
	c, srv := pair(t)
	inos := pollerInodes(t)
	ino := func(fd int) uint64 {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			t.Fatal(err)
		}
		return st.Ino
	}
	if inos[ino(c.fd)] {
		t.Fatalf("the detached socket (inode %d) is still in the poller", ino(c.fd))
	}
	rc, _ := srv.(*net.TCPConn).SyscallConn()
	sfd := -1
	rc.Control(func(fd uintptr) { sfd = int(fd) })
	if !inos[ino(sfd)] {
		t.Fatalf("control: the server's socket (inode %d) is not listed in %v", ino(sfd), inos)
	}
}

func TestDetachRefusesOtherConns(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if _, err := Detach(a); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Detach(net.Pipe): %v, want ErrUnsupported", err)
	}
	if err := a.SetDeadline(time.Time{}); err != nil {
		t.Fatalf("the refused conn was touched: %v", err)
	}
}
