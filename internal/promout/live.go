// Package promout serves a run's live figures in the Prometheus text format
// (`--metrics-addr 127.0.0.1:PORT`): per-operation counts and rates,
// latency quantiles from the HDR histograms over a sliding window, errors
// by class, terminals, phase, and the inputs of the run's verdict (success
// ratio, the driver's own CPU through the process collector). It is fed
// once a second from the runner's ticker ([Live.Tick]), never from a
// terminal, and renders only when scraped.
package promout

import (
	"math"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

// WindowTicks is the length of the sliding window, in one-second ticks, over
// which latency quantiles and the success ratio are computed.
const WindowTicks = 10

// opKey names one operation of one workload (a sweep runs several).
type opKey struct{ workload, op string }

// opState is one operation's live figures.
type opState struct {
	ok, rollback    int64
	errs            [target.NumClasses]int64 // failed attempts by class
	retries         [target.NumClasses]int64 // retried attempts by class
	lastRate        float64                  // completed per second in the last tick (its count over its length)
	ring            [WindowTicks]*hdr.Histogram
	ringOK, ringErr [WindowTicks]int64
}

// Live holds the figures of the current run for the exporter. Its methods
// are safe for concurrent use; Tick is cheap (one histogram merge per op).
type Live struct {
	mu        sync.Mutex
	workload  string
	ops       []string
	terminals int
	phase     string
	slot      int
	state     map[opKey]*opState
	runs      int64
	// done and secs are the current run's completions and seconds so
	// far: the rate that tells a window without completions (an outage:
	// success ratio 0) from a run too slow to complete one in it (NaN).
	done int64
	secs float64
}

// NewLive returns an empty Live.
func NewLive() *Live { return &Live{state: map[opKey]*opState{}, phase: "idle"} }

// Begin announces a run (or sweep step): its workload name, operation names
// and terminal count. Counters of earlier runs are kept (Prometheus
// counters only grow); the latency window starts empty.
func (l *Live) Begin(workload string, ops []string, terminals int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.workload, l.ops, l.terminals, l.phase = workload, append([]string(nil), ops...), terminals, "warmup"
	l.runs++
	l.done, l.secs = 0, 0
	l.clearWindow()
}

// clearWindow empties the current workload's rates and latency window.
func (l *Live) clearWindow() {
	for _, op := range l.ops {
		st := l.op(op)
		for i := range st.ring {
			if st.ring[i] != nil {
				st.ring[i].Reset()
			}
			st.ringOK[i], st.ringErr[i] = 0, 0
		}
		st.lastRate = 0
	}
}

// End marks the run finished (phase "done", terminals 0): its rates drop
// to 0 and its latency quantiles and success ratio are no longer served
// (a dashboard between sweep steps shows no figures of the step before
// as current ones); the counters stay.
func (l *Live) End() {
	l.mu.Lock()
	l.phase, l.terminals = "done", 0
	l.clearWindow()
	l.mu.Unlock()
}

func (l *Live) op(name string) *opState {
	k := opKey{l.workload, name}
	st := l.state[k]
	if st == nil {
		st = &opState{}
		l.state[k] = st
	}
	return st
}

// Tick adds one interval snapshot of dur (runner.Config.OnTick: about a
// second; a phase edge's shorter, a drain's longer). s is read during the
// call only.
func (l *Live) Tick(s *metrics.Snapshot, dur time.Duration, measured bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if measured {
		l.phase = "measure"
	}
	secs := dur.Seconds()
	if secs <= 0 {
		secs = 1
	}
	l.secs += secs
	l.slot = (l.slot + 1) % WindowTicks
	for i, name := range l.ops {
		if i >= len(s.Counts) {
			break
		}
		st := l.op(name)
		c := s.Counts[i]
		st.ok += c.OK
		st.rollback += c.Rollback
		for cl := range c.Errs {
			st.errs[cl] += c.Errs[cl]
			st.retries[cl] += c.RetryErrs[cl]
		}
		st.lastRate = float64(c.OK+c.Rollback) / secs
		l.done += c.OK + c.Rollback
		st.ringOK[l.slot], st.ringErr[l.slot] = c.OK+c.Rollback, c.Errors()
		h := st.ring[l.slot]
		if h == nil {
			h = metrics.NewHistogram()
			st.ring[l.slot] = h
		}
		h.Reset()
		if src := s.OKHist[i]; src != nil {
			h.Merge(src)
		}
	}
}

func nan() float64 { return math.NaN() }

// outageExpected is how many completions the run's rate so far must
// promise in the latency window before a window without any is an outage
// (results.Outages' rule: at least 10).
const outageExpected = 10

// outage reports whether the window held no completion while a run in
// progress had completed at a rate that promised outageExpected in it:
// the server is down or hung (terminals in reconnect back-off or blocked
// reads), not merely slow, and the success ratio is 0, not "no data".
func (l *Live) outage() bool {
	if l.terminals == 0 || (l.phase != "warmup" && l.phase != "measure") || l.secs <= 0 {
		return false
	}
	window := min(l.secs, float64(WindowTicks))
	return float64(l.done)/l.secs*window >= outageExpected
}
