// Package runner drives the terminals of a workload against a target: it
// opens connections at a bounded rate, runs warm-up and the measurement
// window, paces (keying/think times or an open-loop rate), retries retryable
// errors, reconnects lost sessions, and ticks the metrics once a second.
package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

// Config controls one run.
type Config struct {
	Terminals int
	Warmup    time.Duration
	// Duration is the measurement window; 0 means until MaxOps or Ctrl-C.
	Duration time.Duration
	// MaxOps ends the run after this many completed ops in the measurement
	// window (YCSB operationcount); 0 = unlimited.
	MaxOps int64
	// Rate is the total target rate in ops/s over all terminals (open loop,
	// latency counted from the intended start); 0 = closed loop.
	Rate float64
	// Poisson draws open-loop arrivals with exponential gaps (sysbench's
	// --rate) instead of a uniform schedule; Seed seeds them.
	Poisson bool
	Seed    uint64
	// Wait enables the workload's keying and think times.
	Wait bool
	// MaxRetries re-runs an op after a deadlock/serialization/lock-timeout
	// error at most this many times.
	MaxRetries int
	// ReportInterval is the live-line period (0 = no live lines).
	ReportInterval time.Duration
	// OwnThreads runs every terminal on an OS thread of its own
	// (runtime.LockOSThread), for sessions whose sockets block in read on
	// the terminal's thread (target.SocketBlocking): the thread the kernel
	// wakes with the reply is then the one that goes on, as in a C
	// client, instead of whichever thread last ran the goroutine (only a
	// yield between transactions can move it: worker.yield).
	OwnThreads bool
	// ThreadEach makes an OS thread for every terminal before the run's
	// clock starts (terminalGate), for terminals that each hold one while
	// they wait (blocking sockets); the runtime keeps them idle until the
	// terminals block. Implied by OwnThreads. Poller runs leave it off:
	// their thousands of terminals share a few threads.
	ThreadEach bool
	// YieldEvery makes a terminal pass through the Go scheduler between
	// transactions at most this often (worker.yield); 0 never. A terminal
	// whose socket blocks in read on its own P never enters the scheduler
	// by itself, so the runtime preempts it every 10 ms with a signal,
	// mostly in the middle of a transaction, where the preemption's
	// thread hand-off and wake-ups add to the transaction's latency; a
	// yield between transactions takes that pass outside them.
	// Measured in docs/benchmarks.md ("2026-11-25 night", "2026-11-27
	// (08:00)").
	YieldEvery time.Duration
	// LocalYield makes those yields put the terminal on its own P's run
	// queue (runtime.goyield), waking no other thread, instead of the
	// global one (runtime.Gosched). For runs with spare Ps, whose
	// runner goroutines do not wait for the terminals' yields to run.
	// OwnThreads terminals always yield in place (worker.yield).
	LocalYield bool
	// ConnectParallel bounds connection attempts in flight at start (default 64).
	ConnectParallel int
	// OnReport receives a live report every ReportInterval.
	OnReport func(Report)
	// OnPhase is called when the phase changes: "measure" (the window
	// opens: warm-up ends, or without warm-up once every terminal is
	// connected and ready, before the first transaction), "closed" (the
	// window has closed: no transaction starts in it any more), "drain"
	// (transactions still in flight after DrainNotice are waited for, up
	// to the grace period) and "done".
	OnPhase func(phase string)
	// OnTick receives every interval snapshot (about one second; dur is
	// its length: a phase edge's is shorter, the drain's up to the grace
	// period) on the ticker goroutine (never on a terminal's path); the
	// snapshot is valid only during the call. measured tells whether the
	// window was open. It feeds live exporters such as --metrics-addr.
	OnTick func(s *metrics.Snapshot, dur time.Duration, measured bool)
	// BeforeStart, when set, is called once with every terminal's session
	// after all of them are ready and before the first transaction (and
	// before Sync). It must not keep the sessions; the run waits for it.
	// runwatch uses it to read the server's counters at a quiet moment.
	BeforeStart func(ctx context.Context, conns []target.Conn)
	// Sync, when set, agrees the start instant with other partitions once
	// every terminal is ready (see SyncFunc); nil starts at once.
	Sync SyncFunc
}

// Setting names a Config field in a Problem; the command line layer
// (registry.RunnerProblems) renames it to the flag a command declares.
type Setting string

// The settings Problems checks.
const (
	SettingTerminals      Setting = "terminals"
	SettingWarmup         Setting = "warm-up"
	SettingDuration       Setting = "duration"
	SettingRate           Setting = "rate"
	SettingMaxRetries     Setting = "max-retries"
	SettingReportInterval Setting = "report-interval"
	SettingMaxOps         Setting = "operation count"
)

// Problem is one invalid setting and what is wrong with it, e.g.
// {SettingWarmup, "must not be negative (got -1s)"}.
type Problem struct {
	Setting Setting
	Msg     string
}

func (p Problem) Error() string { return string(p.Setting) + " " + p.Msg }

// Problems lists every invalid setting, in field order; nil when the
// configuration can run. It is the one statement of the rules: Validate
// and the commands' usage errors are both made from it.
func (c *Config) Problems() []Problem {
	var ps []Problem
	add := func(s Setting, format string, a ...any) { ps = append(ps, Problem{s, fmt.Sprintf(format, a...)}) }
	if c.Terminals < 1 {
		add(SettingTerminals, "must be >= 1 (got %d)", c.Terminals)
	}
	if c.Warmup < 0 {
		add(SettingWarmup, "must not be negative (got %s)", c.Warmup)
	}
	switch {
	case c.Duration < 0:
		add(SettingDuration, "must not be negative (got %s)", c.Duration)
	case c.Duration == 0 && c.MaxOps == 0:
		add(SettingDuration, "must be > 0 unless an operation count is given")
	}
	if c.MaxOps < 0 {
		add(SettingMaxOps, "must not be negative (got %d)", c.MaxOps)
	}
	if c.Rate < 0 {
		add(SettingRate, "must not be negative (got %g)", c.Rate)
	}
	if c.MaxRetries < 0 {
		add(SettingMaxRetries, "must not be negative (got %d)", c.MaxRetries)
	}
	if c.ReportInterval < 0 {
		add(SettingReportInterval, "must not be negative (got %s)", c.ReportInterval)
	}
	return ps
}

// Validate returns every problem with the configuration at once (Problems
// joined), nil when it can run.
func (c *Config) Validate() error {
	var errs []error
	for _, p := range c.Problems() {
		errs = append(errs, p)
	}
	return errors.Join(errs...)
}
