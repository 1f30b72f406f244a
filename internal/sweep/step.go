// Package sweep runs a plan: cases x concurrency ladder x targets, saving
// every step's result as soon as it ends.
package sweep

import (
	"context"
	"time"

	"benchpress/internal/registry"
	"benchpress/internal/results"
)

// Step is one (case, concurrency) cell of a plan, fully resolved.
type Step struct {
	CaseID      string
	Workload    string // "tpcc", "sysbench/<test>", "ycsb/<a..f or custom>"
	Target      string // target URL; may contain a password resolved from env: never print it
	Concurrency int    // terminals / threads
	Warmup      time.Duration
	Duration    time.Duration
	// ReportInterval is the plan's report_interval: the step prints a
	// live line this often (0: none, the sweep's own progress lines only).
	ReportInterval time.Duration
	// Options are workload options keyed by their CLI flag names
	// (e.g. "warehouses": "100", "mix": "45,43,4,4,4", "table-size": "100000",
	// "p": "recordcount=1000" ...); values are strings as on a command line.
	// They are what the plan said, for the record.
	Options map[string]string
	// Config is the typed run configuration the plan was validated into
	// (shared by every step of the case: a runner clones it before setting
	// the step's concurrency). Nil for a step built by hand; the runner
	// then configures it from Options.
	Config registry.RunOptions
}

// StepRunner executes one step exactly as the CLI's `<workload> run` would
// and returns its result. The CLI provides the implementation.
type StepRunner interface {
	RunStep(ctx context.Context, s Step) (*results.Run, error)
}
