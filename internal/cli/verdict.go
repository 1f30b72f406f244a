package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/sweep"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// stmtBudgeter is implemented by workloads that can run part of their
// statements as text to fit a per-session prepared-statement budget.
type stmtBudgeter interface {
	StatementKinds() int
	SetStatementBudget(perSession int) int
}

// preparedPerSession is implemented by workloads that prepare a fixed
// number of statements per session and cannot run part of them as text.
type preparedPerSession interface {
	PreparedPerSession() int
}

// ErrStmtLimit: the run would exceed the server's prepared-statement cap.
var ErrStmtLimit = errors.New("not enough prepared statements left on the server")

// planPreparedStatements fits the run into a MySQL server's
// max_prepared_stmt_count (shared by every session of the instance) before
// any terminal connects: each session may hold (limit − in use − reserve) /
// terminals statements. A workload that can run statements as text gets
// that budget (its most frequent statements are prepared, the rest run as
// text); one that cannot is refused with the remedy instead of failing
// mid-run. Nothing to do in text mode or on PostgreSQL and SQLite.
func planPreparedStatements(ctx context.Context, spec *runSpec) (*results.PreparedStmts, error) {
	conn := spec.Connector
	if conn.Target().Kind != target.MySQL || conn.Options().StatementMode != target.Prepared {
		return nil, nil
	}
	admin, err := conn.Connect(ctx)
	if err != nil {
		return nil, err
	}
	lim, ok := target.ReadPreparedStmtLimit(ctx, admin)
	admin.Close()
	if !ok {
		return nil, nil
	}
	terms := max(1, spec.Runner.Terminals)
	reserve := max(16, lim.Max/100) // admin sessions, other clients
	per := int(max(0, lim.Free()-reserve) / int64(terms))
	plan := &results.PreparedStmts{ServerLimit: lim.Max, InUseBefore: lim.InUse, Terminals: terms, PerSession: per}
	switch wl := spec.Workload.(type) {
	case stmtBudgeter:
		plan.Kinds = wl.StatementKinds()
		plan.Prepared = wl.SetStatementBudget(per)
	case preparedPerSession:
		plan.Kinds = wl.PreparedPerSession()
		plan.Prepared = plan.Kinds
		if need := int64(plan.Kinds) * int64(terms); need > lim.Free()-reserve {
			return nil, fmt.Errorf("%w: %d sessions x %d prepared statements = %d, but max_prepared_stmt_count is %d with %d in use; %s",
				ErrStmtLimit, terms, plan.Kinds, need, lim.Max, lim.InUse,
				"raise it (SET GLOBAL max_prepared_stmt_count = ...), run fewer threads, or use --statement-mode text")
		}
	default:
		return nil, nil
	}
	return plan, nil
}

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
			rf.AchievedPerS = round3(float64(res.StartedOps) / secs)
		}
		if res.StartedOps > 0 {
			rf.ServiceAvgMS = round3(float64(res.ServiceTime) / float64(time.Millisecond) / float64(res.StartedOps))
		}
		run.Rate = rf
	}
	outage := 2 * cfg.ReportInterval.Seconds()
	if outage < 2 {
		outage = 2
	}
	results.Judge(run, results.Criteria{MinSuccessPct: app.policy.minSuccess, OutageS: outage, TargetRate: cfg.Rate})
}

// applyRunPolicy sets the runner options that come from the shared flags.
func applyRunPolicy(app *App, cfg *runner.Config) {
	if app.policy.arrivals == "poisson" {
		cfg.Poisson = true
		cfg.Seed = uint64(time.Now().UnixNano())
	}
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
