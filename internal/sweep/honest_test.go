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
