//go:build linux

package sockio

import (
	"syscall"
	"testing"
	"time"
)

// A read of a Conn that parks long waits, whose reply takes longer than
// ReadSlice, waits parked in the poller, gets its data, and leaves the
// socket blocking for the next read; without parking it never waits there.
func TestLongWaitParksInThePoller(t *testing.T) {
	c, srv := pair(t)
	c.SetWaitPolicy(WaitPolicy{ParkLong: true})
	type result struct {
		s   string
		err error
	}
	got := make(chan result, 1)
	go func() {
		b := make([]byte, 8)
		n, err := c.Read(b)
		got <- result{string(b[:n]), err}
	}()
	deadline := time.Now().Add(2 * time.Second)
	for c.waiting.Load() == nil {
		if time.Now().After(deadline) {
			t.Fatal("the read did not move its wait to the poller")
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := srv.Write([]byte("late")); err != nil {
		t.Fatal(err)
	}
	r := <-got
	if r.err != nil || r.s != "late" {
		t.Fatalf("read %q, %v", r.s, r.err)
	}
	if c.waiting.Load() != nil {
		t.Error("the poller's file is still recorded after the wait")
	}
	flags, _, e := syscall.RawSyscall(syscall.SYS_FCNTL, uintptr(c.fd), syscall.F_GETFL, 0)
	if e != 0 || flags&syscall.O_NONBLOCK != 0 {
		t.Fatalf("socket flags %#x (%v): want blocking after the wait", flags, e)
	}
	// The next round trip reads from the blocking socket again.
	if _, err := srv.Write([]byte("next")); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 8)
	if n, err := c.Read(b); err != nil || string(b[:n]) != "next" {
		t.Fatalf("second read %q, %v", b[:n], err)
	}
}

func TestLongWaitStaysInTheThreadUnlessParked(t *testing.T) {
	c, srv := pair(t)
	done := make(chan error, 1)
	go func() {
		_, err := c.Read(make([]byte, 8))
		done <- err
	}()
	for range 30 {
		time.Sleep(time.Millisecond)
		if c.waiting.Load() != nil {
			t.Fatal("a read that does not park long waits moved to the poller")
		}
	}
	srv.Write([]byte("x"))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A write while a read waits parked (the description non-blocking) waits
// for room in its thread instead of spinning: 16 MB into a peer that
// starts reading after 200 ms cost the process far less than 200 ms of CPU.
func TestWriteBesideAParkedReadDoesNotSpin(t *testing.T) {
	c, srv := pair(t)
	c.SetWaitPolicy(WaitPolicy{ParkLong: true})
	go c.Read(make([]byte, 1)) // parks; ends when the test's sockets close
	for c.waiting.Load() == nil {
		time.Sleep(time.Millisecond)
	}
	before := cpuTime(t)
	writeSlowPeer(t, c, srv, 200*time.Millisecond)
	if used := cpuTime(t) - before; used > 120*time.Millisecond {
		t.Errorf("the write cost %v of CPU while the peer did not read for 200 ms: it spins", used)
	}
}

func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
