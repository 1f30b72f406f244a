// Package workload defines the contract between a benchmark workload (TPC-C,
// sysbench OLTP, YCSB) and the runner. A workload is declarative: it names its
// operation types, creates per-terminal state bound to one connection, and
// executes one operation per call. It never reads flags, prints, or schedules;
// the runner owns time, pacing, retries, reconnects and measurement.
package workload

import (
	"context"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
	"benchpress/internal/target"
)

// Workload is a configured benchmark ready to run against a prepared data set.
type Workload interface {
	// Ops names the operation (transaction) types; an op id indexes this slice.
	Ops() []string
	// Extras names workload-defined counters (e.g. sysbench's read/write/other
	// query counts); a Terminal reports them through Extras().
	Extras() []string
	// NewTerminal creates the state of terminal id (0-based, of n) bound to
	// conn: prepared statements, random source, home warehouse, deck...
	NewTerminal(ctx context.Context, id, n int, conn target.Conn) (Terminal, error)
}

// Terminal is one emulated user. It is used by exactly one goroutine.
type Terminal interface {
	// Next chooses the next operation to run (e.g. deals the next card).
	Next() int
	// Exec runs one attempt of op as one or more database transactions. It
	// returns metrics.OK, or metrics.Rollback for a rollback the workload
	// defines as a normal outcome, or metrics.Failed with the error. On error
	// the terminal has already rolled back its open transaction.
	Exec(ctx context.Context, op int) (metrics.Outcome, error)
	// Extras returns the per-terminal counter deltas accumulated since the
	// last call, indexed like Workload.Extras (nil when the workload has
	// none). The runner adds them to the metrics and zeroes them.
	Extras() []int64
	// Close releases prepared statements; the runner closes the connection.
	Close()
}

// Waiter is implemented by terminals with keying and think times (TPC-C
// clause 5.2.5); the runner applies them when waits are enabled.
type Waiter interface {
	// Keying is the fixed keying time before op is executed.
	Keying(op int) time.Duration
	// Think is the think time after op completed (drawn per call).
	Think(op int) time.Duration
}

// Summarizer is implemented by workloads that add their own headline figures
// (tpmC, New-Order rollbacks, query classes, response-time checks) to a run
// result after the runner filled the generic parts.
type Summarizer interface {
	Summarize(r *results.Run, cum *metrics.Snapshot)
}

// TerminalSummarizer is implemented by workloads that report how the
// window's work spread over their own terminals (sysbench's threads
// fairness): events holds each terminal's successful operations in the
// measurement window, spec rollbacks included, failed attempts not.
type TerminalSummarizer interface {
	SummarizeTerminals(r *results.Run, events []int64)
}

// LongRoundTrips is implemented by workloads whose round trips carry
// enough server work that their terminals on blocking sockets should wait
// for a reply otherwise than short queries do (sockio.WaitPolicy, set with
// target.Connector.SetWaitPolicy):
//   - when the terminals outnumber the load machine's CPUs, a read gives up
//     the CPU once before it blocks (YieldFirst): the thread is then still
//     runnable when the reply comes, so the reply wakes no one and the CPU
//     went to a server thread meanwhile. Short round trips lose by it (the
//     yielded thread queues behind the runnable ones: sysbench point
//     selects' p99 4x on MariaDB at 8 threads, docs/benchmarks.md
//     "2026-11-26 (15:00)");
//   - a reply that takes longer than sockio.ReadSlice is waited for parked
//     in Go's poller (ParkLong) instead of in a thread the runtime
//     interrupts every 10-20 ms (point selects at 128 threads lose by that
//     too: "2026-11-26 (18:00)").
//
// So a workload opts in.
type LongRoundTrips interface {
	LongRoundTrips() bool
}

// HasLongRoundTrips reports whether w declares long round trips
// (LongRoundTrips); false for workloads that do not implement it.
func HasLongRoundTrips(w Workload) bool {
	y, ok := w.(LongRoundTrips)
	return ok && y.LongRoundTrips()
}

// StmtCounter is implemented by workloads that know how many statement round
// trips an op costs on average; used to report driver CPU per statement.
type StmtCounter interface {
	Statements(cum *metrics.Snapshot) int64
}
