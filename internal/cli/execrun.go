package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"benchpress/internal/console"
	"benchpress/internal/monitor"
	"benchpress/internal/partition"
	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/runwatch"
	"benchpress/internal/target"
	"benchpress/internal/target/sockio"
	"benchpress/internal/workload"
)

// blockingYieldEvery is how often a terminal on a blocking socket yields
// between transactions: under the runtime's 10 ms preemption (sysmon
// preempts a P whose schedule count has not moved for 10 ms) with room for
// a transaction that ends just before it.
const blockingYieldEvery = 5 * time.Millisecond

// ownThreadsPerCPU bounds the terminals per CPU that keep an OS thread of
// their own in runs of short round trips (runSpec's OwnThreads).
const ownThreadsPerCPU = 16

// runSpec is a fully validated run of one workload.
type runSpec struct {
	Name      string // workload name as saved: "tpcc", "sysbench/oltp_read_write", "ycsb/a"
	Workload  workload.Workload
	Connector *target.Connector
	Runner    runner.Config
	Config    map[string]any // resolved options for the JSON (no secrets)
	// Live formats one live line; nil uses the generic formatter.
	Live func(runner.Report) string
	// Quiet suppresses live lines and phase messages (sweeps print their own).
	Quiet bool
	// Part, when set, runs this process as one partition of a run.
	Part *partition.Plan
}

// executeRun runs spec and assembles the saved result. It returns the result
// also when interrupted (Status "interrupted"); the error is then ErrInterrupted.
func executeRun(ctx context.Context, app *App, spec *runSpec) (*results.Run, error) {
	cfg := spec.Runner
	if err := applyRunPolicy(app, &cfg); err != nil {
		return nil, err
	}
	live := spec.Live
	if live == nil {
		live = genericLiveLine
	}
	var acct *monitor.Self
	startAcct := func() { acct = monitor.StartSelf() }
	// Quiet runs (sweep steps) print live lines only when the plan set
	// report_interval (registry.RunOptions.SetStep; 0 otherwise).
	if cfg.ReportInterval > 0 {
		cfg.OnReport = func(r runner.Report) {
			line := live(r)
			if r.Final {
				// Else it reads as a second line for the same second
				// ("[ 20s ]" twice), with the drain's slow tail.
				line += fmt.Sprintf("  (last %.2f s, with the drain)", r.Seconds)
			}
			fmt.Fprintln(app.Err, line)
		}
	}
	cfg.OnPhase = func(p string) {
		switch p {
		case "done":
			app.prof.writeHeap()
		case "measure":
			startAcct()
			if !spec.Quiet && cfg.Warmup > 0 {
				fmt.Fprintf(app.Err, "warm-up done; measuring for %s\n", fmtDur(cfg.Duration))
			}
		case "closed":
			// The driver's figures cover the window, not the drain after it.
			if acct != nil {
				acct.Close()
			}
		case "drain":
			if !spec.Quiet {
				fmt.Fprintf(app.Err, "measurement window closed; waiting up to %s for the transactions still in flight (they count in the window they started in)\n", fmtDur(runner.DrainGrace-runner.DrainNotice))
			}
		}
	}
	watch := runwatch.Start(ctx, app.watch, runwatch.Spec{Name: spec.Name, Ops: spec.Workload.Ops(),
		Terminals: spec.Runner.Terminals, Connector: spec.Connector})
	// Every return before Finish (a refused statement plan, a failed run)
	// stops the host watch and closes its admin session.
	defer watch.Close()
	watch.Hook(ctx, &cfg)
	if spec.Part != nil {
		cfg.Sync = spec.Part.Sync(spec.Connector)
	}
	started := time.Now()
	// The server's connection limit, read after the watch opened its own
	// session (which stays open through the run).
	// A partition checks its share and the whole run's terminals: the
	// partitions on other machines share the server's limits.
	// Only the first partition warns of the whole run's shortfall: it is
	// the same sentence in every one (with --processes N the parent and
	// every child said it: N+1 lines).
	whole, quietWhole := 0, false
	if spec.Part != nil {
		whole, quietWhole = spec.Part.RunTerminals(), spec.Part.Spec.Index > 0
	}
	budget := checkConnBudget(ctx, app.Err, spec.Connector, cfg.Terminals, whole, quietWhole)
	if !spec.Quiet {
		fmt.Fprintf(app.Err, "connecting %d terminal(s) to %s ...\n", cfg.Terminals, spec.Connector.Target().Redacted())
	}
	// The socket mode and the process settings first: the sessions opened
	// from here on (the statement plan's too, which the pool hands to a
	// terminal) wait for replies the way this run's terminals should. A
	// terminal blocked in a raw read keeps its P: without a P per terminal
	// (GOMAXPROCS pinned in the environment, or no process hook) the
	// poller serves better.
	cpus := runtime.NumCPU()
	blocking := spec.Connector.WantsBlocking(cfg.Terminals)
	yield := blocking && target.SharedYield(spec.Connector.Target().Kind, cfg.Terminals, cpus)
	if app.TuneProcess != nil {
		defer app.TuneProcess(ProcessPlan{Terminals: cfg.Terminals, BlockingIO: blocking, Yield: yield})()
	}
	blocking = blocking && runtime.GOMAXPROCS(0) >= cfg.Terminals
	spec.Connector.SetBlockingSockets(blocking)
	defer spec.Connector.SetBlockingSockets(false)
	// A thread per terminal: the reply always wakes the thread that goes
	// on, and the kernel serves the terminals as evenly as a C client's
	// threads. Since the terminals yield in place every 5 ms (below) the
	// runtime no longer preempts them, which once handed a locked
	// goroutine between threads; short round trips (sysbench, YCSB) keep
	// their threads up to ownThreadsPerCPU terminals per CPU (PostgreSQL
	// point selects at 8 threads on 2 CPUs: p99 0.88 of sysbench's against
	// 1.24 unlocked, events per terminal 3 % apart against 6 %;
	// docs/benchmarks.md "2026-11-29 (15:14)"). Long ones (TPC-C) park
	// their reads in the poller (ParkLong), where a locked goroutine is
	// handed back through a second thread: theirs only while the
	// terminals fit the cores.
	longTrips := workload.HasLongRoundTrips(spec.Workload)
	ownLimit := cpus
	if !longTrips {
		ownLimit = ownThreadsPerCPU * cpus
	}
	cfg.OwnThreads = blocking && cfg.Terminals <= ownLimit
	// Blocking terminals pass through the scheduler between transactions
	// before the runtime's 10 ms preemption would take them in the middle
	// of one (runner.Config.YieldEvery): in place where the run has spare
	// Ps, through the global queue where the terminals hold every P
	// (target.SharedYield: their yields let the runner's goroutines run).
	if blocking {
		cfg.ThreadEach = true
		cfg.YieldEvery = blockingYieldEvery
		cfg.LocalYield = !yield
	}
	// How a blocking read waits for its reply (sockio.WaitPolicy): for
	// workloads with long round trips (workload.LongRoundTrips) it gives up
	// the CPU once before it blocks whenever the terminals outnumber the
	// CPUs, and a read that has waited sockio.ReadSlice waits on parked in
	// the poller, not in a thread the runtime interrupts with a preemption
	// signal every 10-20 ms. Short round trips do neither, on any server
	// (docs/benchmarks.md, "2026-11-27 (10:30)").
	wait := sockio.WaitPolicy{
		YieldFirst: blocking && cfg.Terminals > cpus && longTrips,
		ParkLong:   blocking && longTrips,
	}
	if wait != (sockio.WaitPolicy{}) {
		spec.Connector.SetWaitPolicy(wait)
		defer spec.Connector.SetWaitPolicy(sockio.WaitPolicy{})
	}
	plan, err := workload.PlanPreparedStatements(ctx, spec.Workload, spec.Connector, spec.Runner.Terminals, whole)
	if err != nil {
		return nil, err
	}
	procs := runtime.GOMAXPROCS(0)
	before := countSessions(spec.Connector)
	res, err := runner.Run(ctx, cfg, spec.Workload, spec.Connector)
	if err != nil {
		return nil, budget.explain(withHint(err))
	}
	run := assemble(app, spec, res, started, countSessions(spec.Connector).since(before))
	if acct != nil {
		run.Driver = acct.DriverFigures(run, statementsOf(spec.Workload, res.Cumulative))
		run.Driver.SocketIO, run.Driver.GoMaxProcs = "poller", procs
		if blocking {
			run.Driver.SocketIO = "blocking"
		}
		run.Driver.YieldMS = float64(cfg.YieldEvery) / float64(time.Millisecond)
		run.Driver.YieldBeforeWait = wait.YieldFirst
		if wait.ParkLong {
			run.Driver.ParkLongWaitsMS = float64(sockio.ReadSlice) / float64(time.Millisecond)
		}
	}
	watch.Finish(ctx, run, res.MeasureFrom, res.MeasureTo)
	interrupted := ctx.Err() != nil || res.Interrupted
	if interrupted {
		run.Status = "interrupted"
	}
	finalizeRun(app, cfg, res, run, plan)
	if interrupted {
		return run, ErrInterrupted
	}
	return run, nil
}

// assemble turns the runner's measurement into the saved result format.
// opened are the sessions the run's terminals opened (sessionCounts.since).
func assemble(app *App, spec *runSpec, res *runner.Result, started time.Time, opened sessionCounts) *results.Run {
	ops := spec.Workload.Ops()
	cum := res.Cumulative
	secs := res.MeasuredSeconds()
	tgt := spec.Connector.Target()
	run := &results.Run{
		FormatVersion:    results.FormatVersion,
		Tool:             results.Tool{Name: "benchpress", Version: app.Version},
		Workload:         spec.Name,
		Target:           tgt.Redacted(),
		TargetKind:       string(tgt.Kind),
		ServerVersion:    res.ServerVersion,
		Config:           spec.Config,
		Status:           "ok",
		StartedAt:        started.UTC(),
		EndedAt:          time.Now().UTC(),
		WarmupS:          spec.Runner.Warmup.Seconds(),
		Endpoints:        opened.endpoints,
		Clients:          opened.clients,
		Reconnects:       res.Reconnects,
		WarmupReconnects: res.WarmupReconnects,
		WarmupErrors:     res.WarmupErrors,
		Abandoned:        res.Abandoned,
		ConnectS:         round3(res.ConnectTime.Seconds()),
	}
	results.Fill(run, cum, ops, secs)
	run.Series = seriesOf(res, ops)
	// A partition is marked before the workload's figures: they are its
	// share's (TPC-C's efficiency over its own terminals, not the run's).
	if spec.Part != nil {
		spec.Part.Annotate(run, res, &spec.Runner, spec.Workload.Extras())
	}
	if sm, ok := spec.Workload.(workload.Summarizer); ok {
		sm.Summarize(run, cum)
	}
	if ts, ok := spec.Workload.(workload.TerminalSummarizer); ok {
		ts.SummarizeTerminals(run, res.PerTerminalEvents())
	}
	return run
}

// seriesOf converts the runner's one-second ticks into saved intervals.
func seriesOf(res *runner.Result, ops []string) []results.Interval {
	out := make([]results.Interval, 0, len(res.Series))
	prev := 0.0
	for _, t := range res.Series {
		dt := t.Dur
		if dt <= 0 {
			dt = t.T - prev
		}
		prev = t.T
		if dt <= 0 {
			continue
		}
		iv := results.Interval{T: round3(t.T), DurS: round3(dt), Phase: "warmup", Ops: map[string]results.IntervalOp{}}
		if t.Measured {
			iv.Phase = "measure"
		}
		var n int64
		for i, name := range ops {
			o := t.Ops[i]
			n += o.Count
			iv.Errors += o.Errors
			if o.Count == 0 && o.Errors == 0 {
				continue
			}
			iv.Ops[name] = results.IntervalOp{Count: o.Count, PerSec: round3(float64(o.Count) / dt), Errors: o.Errors, AvgMS: round3(o.AvgMS), P95MS: o.P95MS, P99MS: o.P99MS}
		}
		iv.TPS = round3(float64(n) / dt)
		out = append(out, iv)
	}
	return out
}

func round3(v float64) float64 { return float64(int64(v*1000+0.5)) / 1000 }

// genericLiveLine prints elapsed, phase, TPS, p95/p99 and errors.
func genericLiveLine(r runner.Report) string {
	var n, e int64
	for i := range r.OpNames {
		c := r.Snap.Counts[i]
		n += c.OK + c.Rollback
		e += c.Errors()
	}
	l := results.LatencyOf(results.MergedOK(r.Snap))
	tag := ""
	if r.Phase == "warmup" {
		tag = " (warm-up)"
	}
	return fmt.Sprintf("[%6s]%s tps %.1f  avg %.2f ms  p95 %.2f ms  p99 %.2f ms  errors %d",
		console.Elapsed(r.Elapsed), tag, float64(n)/r.Seconds, l.Avg, l.P95, l.P99, e)
}

func fmtDur(d time.Duration) string {
	if d == 0 {
		return "until done"
	}
	return d.String()
}

// writeJSON saves run at path (if set) and says where.
func writeJSON(app *App, path string, run *results.Run) error {
	if path == "" {
		return nil
	}
	if path == "-" {
		return results.WriteLine(app.Out, run)
	}
	if err := results.Write(path, run); err != nil {
		return err
	}
	fmt.Fprintf(app.Err, "result written to %s\n", path)
	return nil
}

// finishRun is the common tail of every `run` command: print the result with
// print and its verdict, save it as JSON when asked, and turn a verdict
// other than ok into the command's error (exit codes 8, 10, 11). what
// names the unit ("transaction", "event", "operation").
func finishRun(app *App, run *results.Run, err error, jsonPath, what string, print func(io.Writer, *results.Run)) error {
	if run == nil {
		return err
	}
	results.Rejudge(run)
	print(app.Out, run)
	console.PrintWatch(app.Out, run)
	console.Partitions(app.Out, run)
	console.Verdict(app.Out, run)
	return withJSON(withVerdict(run, err), writeJSON(app, jsonPath, run))
}

// jsonError is a result that could not be written to --json: the command
// exits 1 (ExitFailure) whatever else happened, as no exit code that says
// "results written" (130, 8, 10, 11) may stand; the other error (the
// verdict, the interruption) is said with it.
type jsonError struct{ err error }

func (e *jsonError) Error() string { return "writing the result: " + e.err.Error() }
func (e *jsonError) Unwrap() error { return e.err }
func (e *jsonError) ExitCode() int { return ExitFailure }

// withJSON joins a failed --json write (jerr) to the command's error err.
func withJSON(err, jerr error) error {
	if jerr == nil {
		return err
	}
	return errors.Join(&jsonError{jerr}, err)
}

// withVerdict is err with run's verdict as the command's error (exit codes
// 8, 10, 11) when err is nil. A failed verdict (exit 10) outranks a failed
// consistency check (8), as in verdictError: a run at 70 % success whose
// --check also failed exits 10, with both errors said.
func withVerdict(run *results.Run, err error) error {
	if err == nil || (errors.Is(err, workload.ErrCheckFailed) && run.Verdict == results.VerdictFailed) {
		if verr := verdictError(run); verr != nil {
			err = errors.Join(verr, err)
		}
	}
	return err
}
