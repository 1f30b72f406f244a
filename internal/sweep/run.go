package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"benchpress/internal/registry"
	"benchpress/internal/results"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// Options control Run.
type Options struct {
	// Resume skips steps whose result file exists with status "ok" and a
	// verdict of ok (or none): failed and degraded steps run again.
	Resume bool
	// Progress receives one line per step (nil = quiet).
	Progress io.Writer
	// Version is the benchpress version recorded in results and environment.json.
	Version string
	// Getenv resolves ${VAR} and password_env (nil: nothing is set).
	Getenv func(string) string
}

// Outcome counts what a sweep did. Failed counts steps that failed or
// whose verdict is "failed"; Degraded those whose verdict is "degraded".
type Outcome struct {
	Planned, Ran, Skipped, Failed, Degraded int
	Interrupted                             bool
}

// ErrPlanChanged: --resume on a directory written by a different plan.
var ErrPlanChanged = errors.New("the plan changed since the results directory was written")

// ErrOutInUse: a sweep without --resume into a directory that holds an
// earlier sweep (its plan.yaml): the report reads every step file there,
// so the earlier steps (of other ladders, or past an interruption) would
// be reported as this sweep's.
var ErrOutInUse = errors.New("the results directory holds an earlier sweep")

// DefaultOut is the results directory of a sweep given no --out:
// base (results/<plan>-<date>), or base-2, base-3, ... when base holds an
// earlier sweep; with resume, the last of these that exists (the sweep to
// continue). exists reports whether a directory holds a sweep's plan.yaml.
func DefaultOut(base string, resume bool, exists func(dir string) bool) string {
	dir := base
	for n := 2; exists(dir); n++ {
		next := fmt.Sprintf("%s-%d", base, n)
		if resume && !exists(next) {
			return dir
		}
		dir = next
	}
	return dir
}

// HoldsSweep reports whether dir holds a sweep's plan.yaml.
func HoldsSweep(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, PlanFile))
	return err == nil
}

// StepPath is where a step's result lives: DIR/<case>/<concurrency>.json.
func StepPath(dir, caseID string, concurrency int) string {
	return filepath.Join(dir, caseID, strconv.Itoa(concurrency)+".json")
}

// Run executes every step of p through steps, writing DIR/plan.yaml,
// DIR/environment.json and DIR/<case>/<concurrency>.json as each step ends.
// A failed step is recorded with status "failed" and the sweep goes on.
// When ctx is cancelled, the interrupted step's result is kept if the runner
// returned one, nothing further runs, and the error wraps ctx.Err().
// Unset environment variables for targets fail the sweep before any step.
func Run(ctx context.Context, p *Plan, outDir string, steps StepRunner, opts Options) (Outcome, error) {
	cells := p.Matrix()
	out := Outcome{Planned: len(cells)}
	urls := map[string]string{}
	var errs []error
	for _, rc := range p.ResolvedCases() {
		if _, done := urls[rc.TargetName]; done {
			continue
		}
		u, err := ExpandURL(p.Targets[rc.TargetName], opts.Getenv)
		if err != nil {
			errs = append(errs, err)
		}
		urls[rc.TargetName] = u
	}
	if err := errors.Join(errs...); err != nil {
		return out, fmt.Errorf("sweep %s: %w", p.Name, err)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return out, fmt.Errorf("sweep %s: %w", p.Name, err)
	}
	if opts.Resume {
		if err := samePlan(outDir, p); err != nil {
			return out, fmt.Errorf("sweep %s: --resume: %w", p.Name, err)
		}
	} else if HoldsSweep(outDir) {
		return out, fmt.Errorf("sweep %s: %w: %s; --resume continues it (the same plan), or give another --out", p.Name, ErrOutInUse, outDir)
	}
	if err := writePlan(outDir, p); err != nil {
		return out, err
	}
	prober, _ := steps.(EnvProber)
	env := newEnvironment(ctx, p, opts.Version, urls, prober)
	if err := WriteEnvironment(outDir, env); err != nil {
		return out, err
	}
	prog := progress{w: opts.Progress, total: len(cells)}
	for i, cell := range cells {
		path := StepPath(outDir, cell.Case.ID, cell.Concurrency)
		if opts.Resume && finishedOK(path) {
			out.Skipped++
			prog.skip(i, cell)
			continue
		}
		if ctx.Err() != nil {
			out.Interrupted = true
			break
		}
		url := urls[cell.Case.TargetName]
		run, status, err := runOne(ctx, steps, cell, url, opts.Version)
		if run != nil {
			if opts.Resume {
				keepMeasured(path)
			}
			if werr := results.Write(path, run); werr != nil {
				return out, fmt.Errorf("sweep %s: step %s@%d: %w", p.Name, cell.Case.ID, cell.Concurrency, werr)
			}
			out.Ran++
			noteServer(env.Targets[cell.Case.TargetName], run)
		}
		switch {
		case status == "failed" || run != nil && run.Verdict == results.VerdictFailed:
			out.Failed++
		case run != nil && run.Verdict == results.VerdictDegraded:
			out.Degraded++
		}
		prog.done(i, cell, run, status, err, Estimate(cells[i+1:]))
		if ctx.Err() != nil {
			out.Interrupted = true
			break
		}
		if i < len(cells)-1 && cell.Case.Cooldown > 0 && !sleep(ctx, cell.Case.Cooldown) {
			out.Interrupted = true
			break
		}
	}
	if err := WriteEnvironment(outDir, env); err != nil {
		return out, err
	}
	if out.Interrupted {
		return out, fmt.Errorf("sweep %s interrupted after %d of %d steps (results so far kept in %s): %w",
			p.Name, out.Ran+out.Skipped, out.Planned, outDir, ctx.Err())
	}
	return out, nil
}

// runOne runs one step and returns the result to save (nil when there is
// nothing to save) and its final status.
func runOne(ctx context.Context, steps StepRunner, cell Cell, url, version string) (*results.Run, string, error) {
	started := time.Now()
	run, err := steps.RunStep(ctx, stepFor(cell, url))
	if err != nil {
		err = scrubError(err, url)
	}
	if run == nil {
		if ctx.Err() != nil {
			return nil, "interrupted", err
		}
		if err == nil {
			err = errors.New("step runner returned no result")
		}
		run = failedRun(cell, url, version, started, err)
		return run, run.Status, err
	}
	if run.Config == nil {
		run.Config = map[string]any{}
	}
	if _, ok := run.Config["concurrency"]; !ok {
		run.Config["concurrency"] = cell.Concurrency
	}
	switch {
	case err != nil && ctx.Err() != nil:
		if run.Status == "" || run.Status == "ok" {
			// Stopped after its window (in the consistency check): the
			// figures stand, the step did not finish.
			run.Status = "interrupted"
			if run.Verdict == results.VerdictOK {
				run.Verdict = results.VerdictDegraded
				run.VerdictReasons = append(run.VerdictReasons, "interrupted after the measurement: "+err.Error())
			}
		}
	case errors.Is(err, workload.ErrCheckFailed) && run.Verdict != "":
		// Measured, and its consistency check failed: degraded, as in
		// `run` (which exits 8; the sweep 11); the check's findings are
		// in run.Checks.
		results.Rejudge(run)
	case err != nil && run.Verdict != "" && run.Status != "failed" && run.Summary.DurationS > 0:
		// Measured and judged, then an after-run step failed (a session
		// lost in the consistency check): the judgement already says what
		// that costs the figures (results.AfterUnfinished: degraded at
		// best), as in `run`; the step keeps its figures and the error.
		run.Error = err.Error()
		if run.Status == "" {
			run.Status = "ok"
		}
		if run.Verdict == results.VerdictOK {
			run.Verdict = results.VerdictDegraded
			run.VerdictReasons = append(run.VerdictReasons, "stopped after the measurement: "+err.Error())
		}
	case err != nil:
		run.Status = "failed"
		run.Error = err.Error()
		if run.Verdict != results.VerdictFailed {
			// A status that says failed beside a verdict that does not
			// would be counted one way and shown the other.
			run.Verdict = results.VerdictFailed
			run.VerdictReasons = append(run.VerdictReasons, "stopped: "+err.Error())
		}
	case run.Status == "":
		run.Status = "ok"
	}
	return run, run.Status, err
}

// failedRun is the record of a step that produced no result.
func failedRun(cell Cell, url, version string, started time.Time, err error) *results.Run {
	cfg := map[string]any{"concurrency": cell.Concurrency, "warmup": FmtDur(cell.Case.Warmup), "duration": FmtDur(cell.Case.Duration)}
	for k, v := range cell.Case.Options {
		if items := registry.Items(v); len(items) > 1 {
			for i := range items {
				items[i] = maskedProperty(items[i])
			}
			cfg[k] = items
		} else {
			cfg[k] = maskedProperty(v)
		}
	}
	r := results.Refused(cell.Case.Workload, url, string(target.KindOf(url)), version, started, err, target.Hint(err))
	r.Config = cfg
	return r
}

// finishedOK reports whether path holds a readable result with status ok
// and a verdict of ok (or none, from before verdicts existed).
func finishedOK(path string) bool {
	r, err := results.Read(path)
	return err == nil && r.Status == "ok" && (r.Verdict == "" || r.Verdict == results.VerdictOK)
}

// keepMeasured moves a measured result at path (a degraded step, or a
// partition of a partitioned step) to path.prev before a resumed step
// writes its own there: a run again that is refused (a barrier that says
// "already joined") must not destroy the figures it was to replace. The
// report reads only *.json.
func keepMeasured(path string) {
	if r, err := results.Read(path); err == nil && r.Summary.DurationS > 0 {
		_ = os.Rename(path, path+".prev")
	}
}

// samePlan fails when dir holds a plan.yaml different from p's resolved
// form: resuming would mix steps of two plans in one report.
func samePlan(dir string, p *Plan) error {
	old, err := os.ReadFile(filepath.Join(dir, PlanFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	cur, err := p.MarshalResolved()
	if err != nil {
		return err
	}
	if string(old) != string(cur) {
		return fmt.Errorf("%w: %s differs from the plan given; use a new --out directory", ErrPlanChanged, filepath.Join(dir, PlanFile))
	}
	return nil
}

// noteServer records the server version a step reported, if not yet known.
func noteServer(te *TargetEnv, run *results.Run) {
	if te != nil && te.ServerVersion == "" && run.ServerVersion != "" {
		te.ServerVersion = run.ServerVersion
	}
}

// scrubError removes the target's password from err's text where it
// appears as a credential (RedactSecret); other text is left alone.
func scrubError(err error, url string) error {
	ui, _ := userinfo(url)
	j := strings.IndexByte(ui, ':')
	if j < 0 || j == len(ui)-1 {
		return err
	}
	msg := err.Error()
	if red := RedactSecret(msg, ui[j+1:]); red != msg {
		return scrubbed{msg: red, err: err}
	}
	return err
}

// scrubbed is an error whose text has the password masked; it still
// matches what it wraps (errors.Is: a failed check stays a failed check).
type scrubbed struct {
	msg string
	err error
}

func (e scrubbed) Error() string { return e.msg }
func (e scrubbed) Unwrap() error { return e.err }

// sleep waits d or until ctx ends; false when ctx ended.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
