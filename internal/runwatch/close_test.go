package runwatch

import (
	"context"
	"testing"
	"time"

	"benchpress/internal/results"
	"benchpress/internal/target"
)

// closeConn counts its Close calls.
type closeConn struct {
	target.Conn
	closed int
}

func (c *closeConn) Close() error { c.closed++; return nil }

// TestCloseEndsTheWatch: a run that ends before Finish (a refused statement
// plan, a failed run) closes the watch's admin session with a deferred
// Close, once, whatever ran before it; Finish after Close adds no figures.
func TestCloseEndsTheWatch(t *testing.T) {
	tg, err := target.Parse("postgres://bench@127.0.0.1:1/bp")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := target.NewConnector(tg, target.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		calls     func(w *Run, run *results.Run)
		wantWatch bool // the result got the watch's figures
	}{
		{"close alone", func(w *Run, _ *results.Run) { w.Close() }, false},
		{"close twice", func(w *Run, _ *results.Run) { w.Close(); w.Close() }, false},
		{"finish, then the deferred close", func(w *Run, run *results.Run) {
			w.Finish(context.Background(), run, time.Now(), time.Now())
			w.Close()
		}, true},
		{"close, then finish", func(w *Run, run *results.Run) {
			w.Close()
			w.Finish(context.Background(), run, time.Now(), time.Now())
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			admin := &closeConn{}
			w := &Run{opts: NewOptions(), spec: Spec{Name: "tpcc", Terminals: 1, Connector: conn}, admin: admin}
			run := &results.Run{Workload: "tpcc"}
			tc.calls(w, run)
			if admin.closed != 1 {
				t.Errorf("admin session closed %d times, want once", admin.closed)
			}
			if got := run.Watch != nil; got != tc.wantWatch {
				t.Errorf("watch figures in the result: %v, want %v", got, tc.wantWatch)
			}
		})
	}
	var nilRun *Run
	nilRun.Close() // watching off: nothing to close
}
