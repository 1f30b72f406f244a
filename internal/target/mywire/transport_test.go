package mywire

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// TestDeadlineEndsSession checks the socket deadline that the statement
// guard (target/mysql_guard.go) uses to interrupt a statement: a deadline
// already past fails the write, a deadline passing while the client waits
// for the response fails the read, on net.Pipe and on TCP (raw system
// calls on Linux); both end the session and close the socket.
func TestDeadlineEndsSession(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr+"/past deadline", func(t *testing.T) {
			c, srv := startFakeOn(t, tr, capsOK, func(s *fakeServer) { s.expectClosed() })
			_ = srv.cli.SetDeadline(time.Unix(1, 0))
			_, err := c.SimpleExec("BEGIN")
			if !errors.Is(err, os.ErrDeadlineExceeded) || c.Err() == nil {
				t.Fatalf("err = %v, Err() = %v; want deadline exceeded", err, c.Err())
			}
			if _, err := c.SimpleExec("BEGIN"); !errors.Is(err, ErrBroken) {
				t.Fatalf("next call: %v", err)
			}
		})
		t.Run(tr+"/deadline while waiting", func(t *testing.T) {
			c, srv := startFakeOn(t, tr, capsOK, func(s *fakeServer) {
				s.expect(queryCmd(comQuery, "SELECT SLEEP(100)"))
				s.expectClosed()
			})
			_ = srv.cli.SetDeadline(time.Now().Add(100 * time.Millisecond))
			start := time.Now()
			_, err := c.SimpleExec("SELECT SLEEP(100)")
			if !errors.Is(err, os.ErrDeadlineExceeded) || c.Err() == nil {
				t.Fatalf("err = %v, Err() = %v; want deadline exceeded", err, c.Err())
			}
			if el := time.Since(start); el > 5*time.Second {
				t.Fatalf("deadline took %v", el)
			}
		})
	}
}

// TestPeerCloseOnTCP checks that the server closing a TCP connection (a
// read of 0 bytes on the raw path) fails the call with
// io.ErrUnexpectedEOF and ends the session.
func TestPeerCloseOnTCP(t *testing.T) {
	c, _ := startFakeOn(t, "tcp", capsOK, func(s *fakeServer) {
		s.expect(queryCmd(comQuery, "BEGIN"))
		s.replyRaw(s.frames(ok(0, 0))[:5])
		s.nc.Close()
	})
	_, err := c.SimpleExec("BEGIN")
	if !errors.Is(err, io.ErrUnexpectedEOF) || c.Err() == nil {
		t.Fatalf("err = %v, Err() = %v; want unexpected EOF", err, c.Err())
	}
}
