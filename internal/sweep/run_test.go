package sweep

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"benchpress/internal/results"
)

// fakeRunner returns a canned result per step; fail marks steps that error,
// cancelAt cancels the context during that step.
type fakeRunner struct {
	mu       sync.Mutex
	calls    []string
	fail     map[string]bool
	cancelAt string
	cancel   context.CancelFunc
}

func (f *fakeRunner) RunStep(ctx context.Context, s Step) (*results.Run, error) {
	key := s.CaseID + "@" + strconv.Itoa(s.Concurrency)
	f.mu.Lock()
	f.calls = append(f.calls, key)
	f.mu.Unlock()
	if f.fail[key] {
		return nil, errors.New("dial tcp: connection refused (password hunter2)")
	}
	r := &results.Run{FormatVersion: results.FormatVersion, Workload: s.Workload, Target: Redact(s.Target), Status: "ok",
		Config: map[string]any{"terminals": s.Concurrency}}
	r.Summary.TPS = float64(100 * s.Concurrency)
	if key == f.cancelAt {
		f.cancel()
		r.Status = "interrupted"
		return r, ctx.Err()
	}
	return r, nil
}

func (f *fakeRunner) ProbeTarget(ctx context.Context, url string) (map[string]string, error) {
	return map[string]string{"version": "10.11.6-MariaDB", "max_connections": "151"}, nil
}

const sweepPlan = `name: t
targets:
  a: mysql://bench:${PW}@h1:3306/db
  b: {url: "postgres://bench@h2/db", password_env: PW}
defaults: {workload: tpcc, warehouses: 2, warmup: 0s, duration: 1s}
ladder: [1, 4]
cases:
  - {id: A, target: a}
  - {id: B, target: b}
`

func setup(t *testing.T) (*Plan, string) {
	p, err := ParsePlan("t.yaml", []byte(sweepPlan))
	if err != nil {
		t.Fatal(err)
	}
	return p, t.TempDir()
}

var env = func(k string) string { return map[string]string{"PW": "hunter2"}[k] }

func TestRunWritesEveryStep(t *testing.T) {
	p, dir := setup(t)
	f := &fakeRunner{fail: map[string]bool{"B@4": true}}
	var prog bytes.Buffer
	out, err := Run(context.Background(), p, dir, f, Options{Progress: &prog, Version: "test", Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	if out.Ran != 4 || out.Failed != 1 || out.Planned != 4 {
		t.Fatalf("outcome %+v", out)
	}
	for _, rel := range []string{"plan.yaml", "environment.json", "A/1.json", "A/4.json", "B/1.json", "B/4.json"} {
		if _, err := os.Stat(filepath.Join(dir, rel)); err != nil {
			t.Errorf("missing %s", rel)
		}
	}
	r, err := results.Read(StepPath(dir, "B", 4))
	if err != nil || r.Status != "failed" || !strings.Contains(r.Error, "connection refused") {
		t.Fatalf("failed step record: %+v %v", r, err)
	}
	ok, _ := results.Read(StepPath(dir, "A", 4))
	if ok.Status != "ok" || ok.Summary.TPS != 400 {
		t.Fatalf("ok step: %+v", ok)
	}
	for _, name := range []string{"plan.yaml", "environment.json", "B/4.json"} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		if strings.Contains(string(b), "hunter2") {
			t.Errorf("%s leaks the password", name)
		}
	}
	if strings.Contains(prog.String(), "hunter2") || !strings.Contains(prog.String(), "[4/4] B c=4 tpcc: failed") {
		t.Errorf("progress:\n%s", prog.String())
	}
	e, err := ReadEnvironment(dir)
	if err != nil || e.Targets["a"].ServerVersion != "10.11.6-MariaDB" || e.Targets["b"].Settings["max_connections"] != "151" {
		t.Fatalf("environment: %+v %v", e, err)
	}

	// Resume re-runs only the failed step.
	f2 := &fakeRunner{}
	out, err = Run(context.Background(), p, dir, f2, Options{Resume: true, Getenv: env})
	if err != nil || out.Skipped != 3 || out.Ran != 1 || strings.Join(f2.calls, ",") != "B@4" {
		t.Fatalf("resume: %+v %v calls %v", out, err, f2.calls)
	}
}

func TestRunInterruptKeepsFinishedSteps(t *testing.T) {
	p, dir := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	f := &fakeRunner{cancelAt: "A@4", cancel: cancel}
	out, err := Run(ctx, p, dir, f, Options{Getenv: env})
	if !errors.Is(err, context.Canceled) || !out.Interrupted || out.Ran != 2 {
		t.Fatalf("outcome %+v err %v", out, err)
	}
	if r, err := results.Read(StepPath(dir, "A", 1)); err != nil || r.Status != "ok" {
		t.Fatalf("finished step lost: %v", err)
	}
	if r, err := results.Read(StepPath(dir, "A", 4)); err != nil || r.Status != "interrupted" {
		t.Fatalf("interrupted step not kept: %+v %v", r, err)
	}
	if _, err := os.Stat(StepPath(dir, "B", 1)); !os.IsNotExist(err) {
		t.Fatalf("a step ran after the interrupt")
	}
}

func TestRunMissingEnv(t *testing.T) {
	p, dir := setup(t)
	_, err := Run(context.Background(), p, filepath.Join(dir, "x"), &fakeRunner{}, Options{Getenv: func(string) string { return "" }})
	if err == nil || !strings.Contains(err.Error(), `target "a": environment variable(s) not set: PW`) {
		t.Fatalf("err %v", err)
	}
	if _, serr := os.Stat(filepath.Join(dir, "x")); !os.IsNotExist(serr) {
		t.Fatal("output written before the env check")
	}
}

func TestDryRun(t *testing.T) {
	p, _ := setup(t)
	var b bytes.Buffer
	PrintDryRun(&b, p)
	for _, want := range []string{"plan t: 2 case(s), 4 step(s)", "target    a (mysql://bench@h1:3306/db)", "workload  tpcc --warehouses 2", "steps     1 4 (2)", "estimated duration: 4s for 4 steps"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("dry run lacks %q:\n%s", want, b.String())
		}
	}
}
