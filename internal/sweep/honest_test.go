package sweep

import (
	"context"
	"errors"
	"strings"
	"testing"

	"benchpress/internal/results"
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
