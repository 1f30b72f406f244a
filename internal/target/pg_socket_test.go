package target

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"testing"
	"time"
)

// TestPgSocket checks the socket pgx gets from rawDialFunc: reads and writes
// reach the peer, a read and a write may run at once (pgx's background
// reader), a deadline interrupts a read, and dial errors pass through.
func TestPgSocket(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	peerc := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			peerc <- c
		}
	}()
	var d net.Dialer
	dial := rawDialFunc(d.DialContext, nil)
	nc, err := dial(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if _, ok := nc.(*pgSocket); !ok {
		t.Fatalf("dialed %T, want *pgSocket", nc)
	}
	peer := <-peerc
	defer peer.Close()

	// Concurrent read (1 MiB from the peer) and write (1 MiB to the peer).
	const n = 1 << 20
	var wg sync.WaitGroup
	var readErr, peerErr error
	wg.Add(3)
	go func() { defer wg.Done(); _, peerErr = peer.Write(make([]byte, n)) }()
	go func() { defer wg.Done(); _, readErr = io.ReadFull(nc, make([]byte, n)) }()
	go func() { defer wg.Done(); _, _ = io.CopyN(io.Discard, peer, n) }()
	if _, err := nc.Write(make([]byte, n)); err != nil {
		t.Fatalf("write: %v", err)
	}
	wg.Wait()
	if readErr != nil || peerErr != nil {
		t.Fatalf("read %v, peer write %v", readErr, peerErr)
	}

	// A deadline passing while waiting for data fails the read.
	_ = nc.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := nc.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read past the deadline: %v", err)
	}

	// The peer closing ends the stream with io.EOF.
	_ = nc.SetReadDeadline(time.Time{})
	peer.Close()
	if _, err := nc.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("read after the peer closed: %v", err)
	}

	if _, err := dial(context.Background(), "tcp", "127.0.0.1:1"); err == nil {
		t.Fatal("dial to a closed port succeeded")
	}
}
