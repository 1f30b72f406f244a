// Package cli turns command lines and plan files into typed configurations and
// runs them. Only cmd/benchpress touches the process (os.Args, environment,
// stdio, exit codes); everything here goes through App.
package cli

import (
	"io"

	"benchpress/internal/registry"
	"benchpress/internal/runwatch"
	"benchpress/internal/target"
)

// App is the process edge handed in by cmd/benchpress.
type App struct {
	Out     io.Writer // results, summaries
	Err     io.Writer // progress, warnings, live lines
	Getenv  func(string) string
	IsTTY   bool // Err is a terminal (progress bars, ETA)
	Version string
	// MySQLClient is the default of --mysql-client ("" = mywire);
	// cmd/benchpress reads it from BENCHPRESS_MYSQL_CLIENT.
	MySQLClient string
	// watch holds the watching flags (--watch, --metrics-addr...; see
	// addWatchFlags), set by NewRoot.
	watch *runwatch.Options
	// TuneProcess, when set, applies the process-wide settings for a run
	// (the soft memory limit, GOMAXPROCS, GOGC) and returns the function
	// restoring them; they stay at the process edge, cmd/benchpress.
	TuneProcess func(ProcessPlan) (restore func())
	// Executable is this binary's path (--processes starts it as children).
	Executable string
	// Environ is this process's environment ("NAME=value"), which the
	// children of --processes inherit; cmd/benchpress gives os.Environ.
	// The root command's context is cancelled on SIGINT/SIGTERM.
	Environ func() []string

	policy runPolicy // --min-success, --arrivals (runpolicy.go)
	prof   profiler  // --cpuprofile, --memprofile (profile.go)
}

// env is what workload commands get from the process edge.
func (a *App) env() *registry.Env {
	return &registry.Env{Out: a.Out, Err: a.Err, IsTTY: a.IsTTY,
		Target: target.Env{Getenv: a.Getenv, MySQLClient: a.MySQLClient}}
}

// ProcessPlan is what a run asks of the process (App.TuneProcess).
type ProcessPlan struct {
	Terminals int
	// BlockingIO: the terminals' sessions block in raw reads, each on its
	// own P (target.SocketBlocking).
	BlockingIO bool
	// Yield: the blocking terminals share the CPUs and their yields
	// between transactions are when the runner's goroutines run
	// (target.SharedYield): a P each and no spare.
	Yield bool
}

// SpareProcs is the Ps a blocking run keeps beyond its terminals' for the
// runner's own goroutines (ticker, watch, the database counters' session).
const SpareProcs = 4

// Procs is the GOMAXPROCS a blocking run needs: a P per terminal, plus
// SpareProcs unless the terminals' yields serve the runner's goroutines
// (Yield: an idle P would make every such yield wake a spinning thread).
func (p ProcessPlan) Procs() int {
	if p.Yield {
		return p.Terminals
	}
	return p.Terminals + SpareProcs
}
