package sweep

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"benchpress/internal/results"
	"benchpress/internal/workload"
)

// verdictRunner returns ok-status runs whose verdict is set per step.
type verdictRunner struct{ verdicts map[string]string }

func (v verdictRunner) RunStep(_ context.Context, s Step) (*results.Run, error) {
	r := &results.Run{FormatVersion: results.FormatVersion, Workload: s.Workload, Status: "ok", Verdict: results.VerdictOK}
	if vd, ok := v.verdicts[s.CaseID]; ok {
		r.Verdict = vd
		r.VerdictReasons = []string{"success rate 8.00 % is below --min-success 99 %"}
	}
	return r, nil
}

func TestRunCountsStepsNotOK(t *testing.T) {
	p, dir := setup(t)
	out, err := Run(context.Background(), p, dir, verdictRunner{map[string]string{"A": results.VerdictFailed, "B": results.VerdictDegraded}}, Options{Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	if out.Failed != 2 || out.Degraded != 2 {
		t.Fatalf("outcome %+v, want 2 failed and 2 degraded", out)
	}
	// Resume re-runs the steps that were not ok.
	f := &fakeRunner{}
	out, err = Run(context.Background(), p, dir, f, Options{Resume: true, Getenv: env})
	if err != nil || out.Ran != 4 || out.Skipped != 0 {
		t.Fatalf("resume: %+v %v (calls %v)", out, err, f.calls)
	}
}

func TestResumeRefusesChangedPlan(t *testing.T) {
	p, dir := setup(t)
	if _, err := Run(context.Background(), p, dir, &fakeRunner{}, Options{Getenv: env}); err != nil {
		t.Fatal(err)
	}
	changed, err := ParsePlan("t.yaml", []byte(strings.Replace(sweepPlan, "ladder: [1, 4]", "ladder: [1, 8]", 1)))
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeRunner{}
	_, err = Run(context.Background(), changed, dir, f, Options{Resume: true, Getenv: env})
	if !errors.Is(err, ErrPlanChanged) || len(f.calls) != 0 {
		t.Fatalf("err = %v, calls %v; want ErrPlanChanged and no step run", err, f.calls)
	}
	// The same plan resumes.
	if _, err := Run(context.Background(), p, dir, &fakeRunner{}, Options{Resume: true, Getenv: env}); err != nil {
		t.Fatalf("unchanged plan: %v", err)
	}
}

// checkRunner measures every step and fails its consistency check (the
// password in the error is masked on the way, which must not hide that it
// is a failed check).
type checkRunner struct{}

func (checkRunner) RunStep(_ context.Context, s Step) (*results.Run, error) {
	r := &results.Run{FormatVersion: results.FormatVersion, Workload: s.Workload, Status: "ok", Verdict: results.VerdictOK,
		Checks: []results.Check{{Name: "C3", Passed: false}}}
	r.Summary.TPS = 100
	return r, fmt.Errorf("%w: condition(s) C3 (password hunter2)", workload.ErrCheckFailed)
}

// A step whose consistency check failed is saved measured and degraded
// (exit 8, as `run`), not failed with a verdict of ok.
func TestRunCheckFailedIsDegraded(t *testing.T) {
	p, dir := setup(t)
	out, err := Run(context.Background(), p, dir, checkRunner{}, Options{Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	if out.Failed != 0 || out.Degraded != 4 {
		t.Fatalf("outcome %+v, want 4 degraded, none failed", out)
	}
	r, err := results.Read(StepPath(dir, "A", 1))
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "ok" || r.Verdict != results.VerdictDegraded || len(r.VerdictReasons) != 1 || !strings.HasPrefix(r.VerdictReasons[0], "check failed: C3") {
		t.Fatalf("saved status %q verdict %q reasons %q; want ok, degraded, check failed", r.Status, r.Verdict, r.VerdictReasons)
	}
}

// A second sweep into a directory holding an earlier one is refused
// without --resume (the report would mix their steps); the default
// directory moves on to -2, -3, and --resume picks the last of them.
func TestOutHoldingEarlierSweep(t *testing.T) {
	p, dir := setup(t)
	if _, err := Run(context.Background(), p, dir, &fakeRunner{}, Options{Getenv: env}); err != nil {
		t.Fatal(err)
	}
	f := &fakeRunner{}
	if _, err := Run(context.Background(), p, dir, f, Options{Getenv: env}); !errors.Is(err, ErrOutInUse) || len(f.calls) != 0 {
		t.Fatalf("second sweep into %s: err %v, calls %v; want ErrOutInUse and no step run", dir, err, f.calls)
	}
	held := map[string]bool{}
	exists := func(d string) bool { return held[d] }
	tests := []struct {
		held   []string
		resume bool
		want   string
	}{
		{nil, false, "r/p"},
		{nil, true, "r/p"},
		{[]string{"r/p"}, false, "r/p-2"},
		{[]string{"r/p"}, true, "r/p"},
		{[]string{"r/p", "r/p-2"}, false, "r/p-3"},
		{[]string{"r/p", "r/p-2"}, true, "r/p-2"},
	}
	for _, tc := range tests {
		clear(held)
		for _, d := range tc.held {
			held[d] = true
		}
		if got := DefaultOut("r/p", tc.resume, exists); got != tc.want {
			t.Errorf("DefaultOut with %v, resume %v = %q, want %q", tc.held, tc.resume, got, tc.want)
		}
	}
}

// errRunner measures every step, judges it ok, and returns err (an
// after-run step that failed: a session lost in the consistency check,
// results.AfterUnfinished having made the verdict degraded), or returns no
// result at all with err when measured is false (a refused step).
type errRunner struct {
	err      error
	measured bool
}

func (e errRunner) RunStep(_ context.Context, s Step) (*results.Run, error) {
	if !e.measured {
		return nil, e.err
	}
	r := &results.Run{FormatVersion: results.FormatVersion, Workload: s.Workload, Status: "ok", Verdict: results.VerdictOK}
	r.Summary.TPS, r.Summary.DurationS = 100, 10
	results.AfterUnfinished(r, e.err, false)
	return r, e.err
}

// A step measured and judged whose after-run step failed keeps its figures
// and its degraded verdict with the error; a step stopped with no verdict
// is failed in both its status and its verdict (never "failed" beside
// "ok"). On --resume, a refused step does not destroy the measured result
// it was to replace: that is kept as <c>.json.prev.
func TestStepErrorStatusAgreesWithVerdict(t *testing.T) {
	lost := errors.New("check: connection lost")
	p, dir := setup(t)
	out, err := Run(context.Background(), p, dir, errRunner{lost, true}, Options{Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	if out.Failed != 0 || out.Degraded != 4 {
		t.Fatalf("outcome %+v, want 4 degraded", out)
	}
	r, err := results.Read(StepPath(dir, "A", 1))
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "ok" || r.Verdict != results.VerdictDegraded || r.Error == "" || r.Summary.TPS != 100 {
		t.Fatalf("saved status %q verdict %q error %q tps %v; want ok, degraded, the error, the figures", r.Status, r.Verdict, r.Error, r.Summary.TPS)
	}

	refused := errors.New("partition 1/2 of run r1-A-1 already joined")
	out, err = Run(context.Background(), p, dir, errRunner{refused, false}, Options{Resume: true, Getenv: env})
	if err != nil || out.Failed != 4 {
		t.Fatalf("resume: %+v %v, want 4 failed", out, err)
	}
	r, err = results.Read(StepPath(dir, "A", 1))
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "failed" || r.Verdict != results.VerdictFailed {
		t.Errorf("refused step: status %q verdict %q, want failed and failed", r.Status, r.Verdict)
	}
	prev, err := results.Read(StepPath(dir, "A", 1) + ".prev")
	if err != nil || prev.Summary.TPS != 100 {
		t.Errorf("the measured result it replaced: %v, %+v", err, prev)
	}
}
