package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchpress/internal/results"
	"benchpress/internal/sweep"
)

type okRunner struct{}

func (okRunner) RunStep(ctx context.Context, s sweep.Step) (*results.Run, error) {
	r := &results.Run{FormatVersion: results.FormatVersion, Workload: s.Workload, Target: sweep.Redact(s.Target), Status: "ok"}
	r.Summary.TpmC = float64(1000 * s.Concurrency)
	r.Summary.TPS = float64(40 * s.Concurrency)
	return r, nil
}

func TestSweepReportCompareCommands(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "p.yaml")
	os.WriteFile(plan, []byte("name: p\ntargets: {a: 'sqlite:///tmp/x.db'}\ndefaults: {workload: tpcc, warmup: 0s, duration: 1s}\nladder: [1, 2]\ncases: [{id: A}, {id: B}]\ncompare: [[A, B]]\n"), 0o644)
	var out, errb bytes.Buffer
	app := &App{Out: &out, Err: &errb, Getenv: func(string) string { return "" }, Version: "test"}

	cmd := newSweepCmd(app, okRunner{})
	cmd.SetArgs([]string{plan, "--dry-run"})
	if err := cmd.ExecuteContext(context.Background()); err != nil || !strings.Contains(out.String(), "estimated duration: 4s for 4 steps") {
		t.Fatalf("dry run: %v\n%s", err, out.String())
	}
	out.Reset()
	res := filepath.Join(dir, "res")
	cmd = newSweepCmd(app, okRunner{})
	cmd.SetArgs([]string{plan, "--out", res})
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), filepath.Join(res, "report.md")) {
		t.Fatalf("sweep output: %s", out.String())
	}
	out.Reset()
	rc := newReportCmd(app)
	rc.SetArgs([]string{res})
	if err := rc.Execute(); err != nil || !strings.Contains(out.String(), "report.html") {
		t.Fatalf("report: %v %s", err, out.String())
	}
	out.Reset()
	cc := newCompareCmd(app)
	cc.SetArgs([]string{filepath.Join(res, "A", "2.json"), filepath.Join(res, "B", "1.json")})
	if err := cc.Execute(); err != nil || !strings.Contains(out.String(), "| tpmC | 2000.00 | 1000.00 | -50.00% |") {
		t.Fatalf("compare: %v\n%s", err, out.String())
	}

	os.WriteFile(plan, []byte("name: p\ntargets: {a: 'sqlite:///tmp/x.db'}\nladder: []\ncases: [{id: A, target: zz}]\n"), 0o644)
	cmd = newSweepCmd(app, okRunner{})
	cmd.SetArgs([]string{plan, "--dry-run"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	var pe *sweep.PlanError
	if err := cmd.Execute(); !errors.As(err, &pe) || len(pe.Problems) != 3 {
		t.Fatalf("want PlanError with 3 problems, got %v", err)
	}
}
