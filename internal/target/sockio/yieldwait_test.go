//go:build linux

package sockio

import (
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

// A Conn that yields before it waits reads as one that does not: data
// already there, data that comes later, the end of stream, a deadline and
// Close from another goroutine.
func TestYieldBeforeWait(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T, c *Conn, s net.Conn)
	}{
		{"data already there", func(t *testing.T, c *Conn, s net.Conn) {
			if _, err := s.Write([]byte("ready")); err != nil {
				t.Fatal(err)
			}
			time.Sleep(20 * time.Millisecond)
			expectRead(t, c, "ready")
		}},
		{"data later", func(t *testing.T, c *Conn, s net.Conn) {
			go func() { time.Sleep(30 * time.Millisecond); _, _ = s.Write([]byte("later")) }()
			expectRead(t, c, "later")
		}},
		{"end of stream", func(t *testing.T, c *Conn, s net.Conn) {
			s.Close()
			if n, err := c.Read(make([]byte, 8)); n != 0 || err != io.EOF {
				t.Fatalf("read %d, %v; want 0, EOF", n, err)
			}
		}},
		{"deadline", func(t *testing.T, c *Conn, s net.Conn) {
			_ = c.SetReadDeadline(time.Now().Add(80 * time.Millisecond))
			if _, err := c.Read(make([]byte, 8)); !isTimeout(err) {
				t.Fatalf("read past the deadline: %v", err)
			}
		}},
		{"closed while waiting", func(t *testing.T, c *Conn, s net.Conn) {
			go func() { time.Sleep(30 * time.Millisecond); c.Close() }()
			if _, err := c.Read(make([]byte, 8)); !errors.Is(err, net.ErrClosed) {
				t.Fatalf("read after Close: %v", err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, s := pair(t)
			defer s.Close()
			c.SetWaitPolicy(WaitPolicy{YieldFirst: true})
			tc.run(t, c, s)
		})
	}
}

func expectRead(t *testing.T, c *Conn, want string) {
	t.Helper()
	buf := make([]byte, 16)
	n, err := c.Read(buf)
	if err != nil || string(buf[:n]) != want {
		t.Fatalf("read %q, %v; want %q", buf[:n], err, want)
	}
}
