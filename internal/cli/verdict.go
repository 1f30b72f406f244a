package cli

import (
	"fmt"
	"math"
	"strings"
	"time"

	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/sweep"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// ErrStmtLimit: the run would exceed the server's prepared-statement cap
// (workload.PlanPreparedStatements; exit code 9).
var ErrStmtLimit = workload.ErrStmtLimit

// finalizeRun adds to run what the runner learnt beyond the counters (the
// error that stopped it, error samples, reconnect failures, open-loop
// figures, the prepared-statement plan) and judges it.
func finalizeRun(app *App, cfg runner.Config, res *runner.Result, run *results.Run, plan *results.PreparedStmts) {
	run.ErrorSamples = res.ErrorSamples
	run.ReconnectFailures = res.ReconnectFailures
	run.PreparedStatements = plan
	if res.Fatal != nil {
		run.Status = "failed"
		run.Error = oneLine(res.Fatal.Error())
		run.Hint = target.Hint(res.Fatal)
	}
	if cfg.Rate > 0 {
		secs := res.MeasuredSeconds()
		rf := &results.RateFigures{TargetPerS: cfg.Rate, Late: res.Late, LateAfterMS: float64(runner.LateAfter) / float64(time.Millisecond),
			Dropped: res.Dropped, Arrivals: "uniform"}
		if cfg.Poisson {
			rf.Arrivals = "poisson"
		}
		if secs > 0 {
			// Cut, not rounded: the judge compares this figure with 95 %
			// of the target, and 189.9996/s must not pass as 190.
			rf.AchievedPerS = math.Floor(float64(res.StartedOps)/secs*1000) / 1000
		}
		if res.StartedOps > 0 {
			rf.ServiceAvgMS = round3(float64(res.ServiceTime) / float64(time.Millisecond) / float64(res.StartedOps))
		}
		run.Rate = rf
	}
	run.Terminals = results.TerminalsOf(res.PerTerminal, res.LongestIdle, res.MeasuredSeconds(), slowestP99S(run), cfg.Rate == 0 && !cfg.Wait)
	// The outage criterion is the judge's default (results.DefaultOutageS),
	// never derived from --report-interval: that flag only sets how often
	// the live line is printed, and at its default of 10 s a 19 s stall
	// would otherwise have passed as an ok run.
	results.Judge(run, results.Criteria{MinSuccessPct: app.policy.minSuccess, TargetRate: cfg.Rate})
}

// applyRunPolicy sets the runner options that come from the shared flags.
// Poisson arrivals pace an open-loop run: without a rate (--rate, or YCSB's
// target property) the runner would ignore them and the user believe the
// run had them, so that is refused.
func applyRunPolicy(app *App, cfg *runner.Config) error {
	if app.policy.arrivals == "poisson" {
		if cfg.Rate <= 0 {
			return usagef("--arrivals poisson paces an open-loop run: it needs a rate (--rate, or YCSB's -p target=)")
		}
		cfg.Poisson = true
		cfg.Seed = uint64(time.Now().UnixNano())
	}
	return nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 500 {
		s = s[:497] + "..."
	}
	return s
}

// VerdictError is returned by a run (or sweep) whose verdict is not ok; it
// carries the exit code (10 failed, 11 degraded) and the first reason.
type VerdictError struct {
	Verdict string
	Reason  string
}

func (e *VerdictError) Error() string {
	if e.Reason == "" {
		return "run " + e.Verdict
	}
	return "run " + e.Verdict + ": " + e.Reason
}

// verdictError maps a judged run to the command's error: a judged check
// that failed is ErrCheckFailed (exit 8) unless the run failed outright;
// a failed verdict is exit 10, a degraded one exit 11.
func verdictError(run *results.Run) error {
	var failedCheck string
	for _, c := range run.Checks {
		if !c.Passed && !c.NotJudged {
			failedCheck = c.Name
			break
		}
	}
	first := ""
	if len(run.VerdictReasons) > 0 {
		first = run.VerdictReasons[0]
	}
	switch {
	case run.Verdict == results.VerdictFailed:
		return &VerdictError{Verdict: run.Verdict, Reason: first}
	case failedCheck != "":
		return &CheckError{Name: failedCheck}
	case run.Verdict == results.VerdictDegraded:
		return &VerdictError{Verdict: run.Verdict, Reason: first}
	}
	return nil
}

// sweepVerdict is the error of a sweep whose steps did not all end ok:
// exit 10 when a step failed, 11 when one was degraded.
func sweepVerdict(o sweep.Outcome) error {
	switch {
	case o.Failed > 0:
		return &VerdictError{Verdict: results.VerdictFailed, Reason: fmt.Sprintf("%d of %d step(s) failed (see the report)", o.Failed, o.Planned)}
	case o.Degraded > 0:
		return &VerdictError{Verdict: results.VerdictDegraded, Reason: fmt.Sprintf("%d of %d step(s) degraded (see the report)", o.Degraded, o.Planned)}
	}
	return nil
}

// CheckError: a response-time, audit or mix check of the run failed
// (exit code 8, like a failed consistency check).
type CheckError struct{ Name string }

func (e *CheckError) Error() string { return "check failed: " + e.Name }

// Is makes a CheckError match workload.ErrCheckFailed.
func (e *CheckError) Is(target error) bool { return target == workload.ErrCheckFailed }

// StartError is a run that could not start because of a missing privilege
// or an exhausted server limit (exit code 10), with the remedy.
type StartError struct {
	Err  error
	Hint string
}

func (e *StartError) Error() string { return e.Err.Error() + " (hint: " + e.Hint + ")" }
func (e *StartError) Unwrap() error { return e.Err }

// withHint marks an error that stopped a run from starting with its remedy
// when its class is fatal (a terminal could not prepare its statements
// for want of a privilege, the server's statement cap...).
func withHint(err error) error {
	if target.Classify(err).Fatal() {
		if h := target.Hint(err); h != "" {
			return &StartError{Err: err, Hint: h}
		}
	}
	return err
}

// slowestP99S is the largest p99 latency of run's operations, in seconds:
// the partial-stall rule's bound against queueing (results.TerminalsOf).
func slowestP99S(run *results.Run) float64 {
	var p99 float64
	for _, o := range run.Ops {
		p99 = max(p99, o.Latency.P99)
	}
	return p99 / 1000
}
