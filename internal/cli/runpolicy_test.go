package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/results"
	"benchpress/internal/sweep"
	"benchpress/internal/workload"
)

// --json - writes to standard output: it needs no writable working
// directory (a pod with a read-only root file system, every partition of
// the Job benchpress k8s writes). A working directory that was removed
// fails every write there, for root too.
func TestCheckWritableStdout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		json    string
		wantErr bool
	}{
		{"-", false},
		{"", false},
		{"out.json", true}, // in the removed directory
	}
	for _, tc := range tests {
		t.Run(tc.json, func(t *testing.T) {
			fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
			fs.String("json", "", "")
			if err := fs.Set("json", tc.json); err != nil {
				t.Fatal(err)
			}
			if err := checkWritable(fs); (err != nil) != tc.wantErr {
				t.Fatalf("--json %q: %v, want error %v", tc.json, err, tc.wantErr)
			}
		})
	}
}

// A failed verdict (exit 10) outranks a failed consistency check (8): a
// run at 70 % success whose --check also failed is not "only" a check
// failure to the script that reads the exit code.
func TestFinishRunVerdictOutranksCheck(t *testing.T) {
	check := fmt.Errorf("%w: condition(s) 3", workload.ErrCheckFailed)
	tests := []struct {
		name    string
		verdict string
		err     error
		code    int
	}{
		{"failed verdict and failed check", results.VerdictFailed, check, ExitRunFailed},
		{"degraded verdict and failed check", results.VerdictDegraded, check, ExitCheckFailed},
		{"ok verdict and failed check", results.VerdictOK, check, ExitCheckFailed},
		{"failed verdict", results.VerdictFailed, nil, ExitRunFailed},
		{"ok", results.VerdictOK, nil, ExitOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			app := &App{Out: io.Discard, Err: io.Discard}
			run := &results.Run{Status: "ok", Verdict: tc.verdict, VerdictReasons: []string{"success rate 70.00 % is below --min-success 99 %"}}
			err := finishRun(app, run, tc.err, "", "transaction", func(io.Writer, *results.Run) {})
			if got := ExitCode(err); got != tc.code {
				t.Fatalf("exit %d (%v), want %d", got, err, tc.code)
			}
			if tc.err != nil && !strings.Contains(err.Error(), "condition(s) 3") {
				t.Errorf("the check's failure is lost: %v", err)
			}
		})
	}
}

// merge judges the merged success rate against the partitions' own
// --min-success (every pod of a Job ran with --min-success 95), or its
// own flag; never a fixed 99.
func TestMergeMinSuccess(t *testing.T) {
	tests := []struct {
		name  string
		bound float64 // the partitions'
		flags []string
		code  int
		want  string
	}{
		{"the partitions' bound", 95, nil, ExitOK, "verdict: OK"},
		{"the partitions' default bound", results.DefaultMinSuccessPct, nil, ExitRunFailed, "below --min-success 99 %"},
		{"merge's own bound", results.DefaultMinSuccessPct, []string{"--min-success", "90"}, ExitOK, "verdict: OK"},
		{"merge's bound 0", 99.5, []string{"--min-success", "0"}, ExitOK, "verdict: OK"},
		{"merge's stricter bound", 95, []string{"--min-success", "98"}, ExitRunFailed, "below --min-success 98 %"},
		{"out of range", 95, []string{"--min-success", "101"}, ExitUsage, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parts := writeParts(t, partSpec{errors: 30, bound: tc.bound}) // 97 % success
			out := filepath.Join(t.TempDir(), "merged.json")
			args := append(append([]string{"merge"}, tc.flags...), out)
			stdout, stderr, code := runCLI(t, nil, append(args, parts...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			if !strings.Contains(stdout, tc.want) {
				t.Errorf("stdout lacks %q:\n%s", tc.want, stdout)
			}
		})
	}
}

// degradedRunner ends every step degraded.
type degradedRunner struct{}

func (degradedRunner) RunStep(_ context.Context, s sweep.Step) (*results.Run, error) {
	r := &results.Run{FormatVersion: results.FormatVersion, Workload: s.Workload, Target: sweep.Redact(s.Target), Status: "ok",
		Verdict: results.VerdictDegraded, VerdictReasons: []string{"outage: no operation completed for 4 s (t = 2..6 s)"}}
	r.Summary.TpmC = float64(1000 * s.Concurrency)
	return r, nil
}

// A report that cannot be written does not replace the steps' verdict:
// the sweep still exits 11 for degraded steps, and says why the report
// is missing.
func TestSweepReportErrorKeepsVerdict(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(plan, []byte("name: p\ntargets: {a: 'sqlite:///tmp/x.db'}\ndefaults: {workload: tpcc, warmup: 0s, duration: 1s}\nladder: [1]\ncases: [{id: A}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "res")
	if err := os.MkdirAll(filepath.Join(res, "report.md"), 0o755); err != nil { // report.md cannot be written
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	app := &App{Out: &out, Err: &errb, Getenv: func(string) string { return "" }, Version: "test"}
	cmd := newSweepCmd(app, degradedRunner{})
	cmd.SetArgs([]string{plan, "--out", res})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.ExecuteContext(context.Background())
	if got := ExitCode(err); got != ExitDegraded {
		t.Fatalf("exit %d (%v), want %d", got, err, ExitDegraded)
	}
	if !strings.Contains(err.Error(), "report.md") {
		t.Errorf("the report's failure is not said: %v", err)
	}
}

// The children of a step with processes: N judge their share by the
// sweep's --min-success (a failover sweep at --min-success 0), which the
// plan does not hold.
func TestStepChildrenGetTheSweepsPolicy(t *testing.T) {
	for _, bound := range []float64{0, 97.5, 99} {
		app := &App{policy: runPolicy{minSuccess: bound}}
		st := sweep.Step{CaseID: "c", Workload: "tpcc", Target: "mysql://bench@h/db", Concurrency: 8, Duration: time.Second}
		args := strings.Join(stepRunner{app: app}.childArgs(st)(), " ")
		if want := fmt.Sprintf("--min-success=%g", bound); !strings.Contains(args, want) {
			t.Errorf("child args %q lack %s", args, want)
		}
	}
}
