package runner

import (
	"sync/atomic"
	"time"
)

// phaseEdges lets the terminals wake the ticker at the end of the warm-up
// and of the window. The ticker waits for both on timers, and a timer can
// fire late: with one TPC-C terminal whose reads park in the poller
// (sockio.WaitPolicy.ParkLong) and the process otherwise idle, the Go
// runtime (1.26) delivered the window's timer up to 0.9 s late in 4 of 10
// runs (a 2 s window measured 2.7-2.9 s; local partitions' windows then
// did not line up and their merge was refused). A terminal compares the
// clock it reads after every transaction with the next edge and, once the
// edge has passed, sends the ticker a nudge: a phase ends at most one
// transaction late whatever the timers do.
type phaseEdges struct {
	next  atomic.Int64 // the next edge, Unix ns; 0: none
	nudge chan struct{}
}

func newPhaseEdges() *phaseEdges { return &phaseEdges{nudge: make(chan struct{}, 1)} }

// set arms the next edge at t (zero: none).
func (e *phaseEdges) set(t time.Time) {
	if t.IsZero() {
		e.next.Store(0)
		return
	}
	e.next.Store(t.UnixNano())
}

// passed is called by a terminal with the time it has just read: past the
// next edge, it nudges the ticker (never blocking: one pending nudge is
// enough).
func (e *phaseEdges) passed(now time.Time) {
	if n := e.next.Load(); n != 0 && now.UnixNano() >= n {
		select {
		case e.nudge <- struct{}{}:
		default:
		}
	}
}
