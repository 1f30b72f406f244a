package cli

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"benchpress/internal/results"
	"benchpress/internal/runner"
)

// Bad input exits 2 wherever it is found: a wrong number of arguments
// (cobra's own checks), --arrivals poisson on a closed-loop run, a missing
// plan with --metrics-addr; and a mistyped k8s run command is reported
// without its flags' values (a password in the target URL).
func TestUsageErrorsExit2(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		want   string
		hidden string // must not appear
	}{
		{"report without a directory", []string{"report"}, "accepts 1 arg", ""},
		{"compare with one file", []string{"compare", "a.json"}, "accepts 2 arg", ""},
		{"merge with one file", []string{"merge", "a.json"}, "at least 2 arg", ""},
		{"sweep without a plan", []string{"sweep"}, "accepts 1 arg", ""},
		{"missing plan with --metrics-addr", []string{"sweep", filepath.Join(t.TempDir(), "missing.yaml"), "--metrics-addr", "127.0.0.1:0"}, "missing.yaml", ""},
		{"k8s job mistyped command", []string{"k8s", "job", "--name", "t", "--partitions", "2", "--image", "i", "--", "tpc", "run", "--target", "mysql://bench:S3cret@db/tpcc"}, "is not a benchpress command", "S3cret"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, stderr, code := runCLI(t, nil, c.args...)
			if code != ExitUsage || !strings.Contains(out+stderr, c.want) {
				t.Fatalf("exit %d (want %d), want %q in:\n%s%s", code, ExitUsage, c.want, out, stderr)
			}
			if c.hidden != "" && strings.Contains(out+stderr, c.hidden) {
				t.Errorf("%q printed:\n%s%s", c.hidden, out, stderr)
			}
		})
	}
}

// Poisson arrivals need a rate, from --rate or YCSB's target property
// (both end in the runner's Rate): a closed-loop run refuses them.
func TestPoissonNeedsARate(t *testing.T) {
	for _, tc := range []struct {
		rate float64
		ok   bool
	}{{0, false}, {2000, true}} {
		app := &App{}
		app.policy.arrivals = "poisson"
		cfg := runner.Config{Rate: tc.rate}
		err := applyRunPolicy(app, &cfg)
		if (err == nil) != tc.ok || (tc.ok && !cfg.Poisson) || (!tc.ok && ExitCode(err) != ExitUsage) {
			t.Errorf("rate %v: err %v poisson %v", tc.rate, err, cfg.Poisson)
		}
	}
}

// A result that could not be written to --json exits 1 whatever the
// verdict or the interruption, with both said: no exit code that means
// "results written" may stand.
func TestWithJSONFailure(t *testing.T) {
	jerr := errors.New("open /full/r.json: no space left on device")
	for _, other := range []error{nil, ErrInterrupted, &VerdictError{Verdict: "degraded"}} {
		err := withJSON(other, jerr)
		if ExitCode(err) != ExitFailure || !strings.Contains(err.Error(), "no space left") {
			t.Errorf("with %v: exit %d, error %v", other, ExitCode(err), err)
		}
		if other != nil && !strings.Contains(err.Error(), other.Error()) {
			t.Errorf("with %v: %v does not say it", other, err)
		}
	}
	if err := withJSON(ErrInterrupted, nil); ExitCode(err) != ExitInterrupted {
		t.Errorf("written: exit %d, want 130", ExitCode(err))
	}
}

// A --check that did not finish (Ctrl-C, a lost session) never leaves the
// run "ok": interrupted with a degraded verdict, or degraded with the
// reason.
func TestAfterUnfinished(t *testing.T) {
	for _, interrupted := range []bool{true, false} {
		r := &results.Run{Status: "ok", Verdict: results.VerdictOK}
		results.AfterUnfinished(r, context.Canceled, interrupted)
		wantStatus := "ok"
		if interrupted {
			wantStatus = "interrupted"
		}
		if r.Status != wantStatus || r.Verdict != results.VerdictDegraded || len(r.VerdictReasons) != 1 || !strings.Contains(r.VerdictReasons[0], "consistency check") {
			t.Errorf("interrupted %v: status %s verdict %s %q", interrupted, r.Status, r.Verdict, r.VerdictReasons)
		}
	}
}
