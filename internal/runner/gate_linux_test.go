package runner

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"testing"
	"time"
)

// threadsNow is the process's OS thread count (/proc/self/status).
func threadsNow(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := bytes.Cut(b, []byte("\nThreads:"))
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	n, err := strconv.Atoi(string(bytes.TrimSpace(line)))
	if err != nil {
		t.Fatalf("no thread count in /proc/self/status: %v", err)
	}
	return n
}

// TestThreadEachBeforeTheClock: with ThreadEach a thread exists for every
// terminal when the start is agreed (Sync runs after the gate has made
// them, before the clock starts), and the terminals still run; without it
// (the control, first: threads are never given back) the runtime has not
// made them by then.
func TestThreadEachBeforeTheClock(t *testing.T) {
	const terminals = 96
	threadsAtStart := func(each bool) int {
		at := 0
		cfg := Config{Terminals: terminals, Duration: 100 * time.Millisecond, ThreadEach: each,
			Sync: func(context.Context) (time.Time, error) { at = threadsNow(t); return time.Now(), nil }}
		res, err := Run(context.Background(), cfg, &funcWL{exec: func(int) { time.Sleep(time.Millisecond) }}, &fakeDialer{})
		if err != nil {
			t.Fatal(err)
		}
		if c := res.Cumulative.Counts[0].OK; c < terminals {
			t.Errorf("ThreadEach %v: %d transactions, want at least one per terminal", each, c)
		}
		return at
	}
	if n := threadsAtStart(false); n >= terminals {
		t.Fatalf("control: %d threads at the start without ThreadEach; the test cannot tell", n)
	}
	if n := threadsAtStart(true); n < terminals {
		t.Errorf("%d threads at the start with ThreadEach, want at least one per terminal (%d)", n, terminals)
	}
}
