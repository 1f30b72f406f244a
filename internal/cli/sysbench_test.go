package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchpress/internal/results"
	"benchpress/internal/sweep"
)

// runRoot runs the root command with args and returns stdout, stderr, error.
func runRoot(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	app := &App{Out: &out, Err: &errb, Getenv: func(string) string { return "" }, Version: "test"}
	root := NewRoot(app)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), errb.String(), err
}

func TestSysbenchFlagValidation(t *testing.T) {
	db := "sqlite://" + filepath.Join(t.TempDir(), "none.db")
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"missing test", []string{"sysbench", "run"}, []string{"missing TEST"}},
		{"unknown test", []string{"sysbench", "run", "oltp_nope"}, []string{`unknown sysbench test "oltp_nope"`}},
		{"all problems at once", []string{"sysbench", "run", "oltp_read_write", "--threads", "0", "--time", "0", "--rate", "-1", "--max-retries", "-2"},
			[]string{"--threads must be >= 1", "--time must be > 0", "--rate must not be negative", "--max-retries must not be negative"}},
		{"bad percentile", []string{"sysbench", "run", "oltp_point_select", "--percentile", "95,101"}, []string{"--percentile"}},
		{"bad time", []string{"sysbench", "run", "oltp_point_select", "--time", "soon"}, []string{"want seconds"}},
		{"bad on/off", []string{"sysbench", "run", "oltp_point_select", "--skip-trx=maybe"}, []string{"want on or off"}},
		{"workload options", []string{"sysbench", "run", "oltp_read_write", "--tables", "0", "--rand-type", "weird"}, []string{"tables", "rand"}},
		{"prepare threads", []string{"sysbench", "prepare", "--threads", "0"}, []string{"--threads must be >= 1"}},
		{"bad target", []string{"sysbench", "run", "oltp_point_select", "--target", "oracle://x"}, []string{"oracle"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{}, c.args...), "--target", db)
			if c.name == "bad target" {
				args = c.args
			}
			_, _, err := runRoot(t, args...)
			if ExitCode(err) != ExitUsage {
				t.Fatalf("exit code %d (%v), want %d", ExitCode(err), err, ExitUsage)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestSysbenchEndToEndSQLite(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite://" + filepath.Join(dir, "sb.db")
	jsonPath := filepath.Join(dir, "r.json")
	size := []string{"--tables", "2", "--table_size", "500"}
	if _, _, err := runRoot(t, append([]string{"sysbench", "prepare", "oltp_point_select", "--target", db, "--threads", "2"}, size...)...); err != nil {
		t.Fatal(err)
	}
	// Not prepared with this size: exit 7; more tables: exit 6.
	if _, _, err := runRoot(t, "sysbench", "run", "oltp_point_select", "--target", db, "--tables", "2", "--table-size", "600", "--time", "1"); ExitCode(err) != ExitMismatch {
		t.Fatalf("size mismatch: %v", err)
	}
	if _, _, err := runRoot(t, "sysbench", "run", "oltp_point_select", "--target", db, "--tables", "3", "--table-size", "500", "--time", "1"); ExitCode(err) != ExitNotPrepared {
		t.Fatalf("missing table: %v", err)
	}
	out, errOut, err := runRoot(t, append([]string{"sysbench", "run", "oltp_point_select", "--target", db, "--threads", "2",
		"--time", "1", "--report-interval", "1", "--percentile", "95,99", "--json", jsonPath}, size...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{"SQL statistics:", "queries performed:", "read:", "transactions:", "ignored errors:", "reconnects:",
		"General statistics:", "total number of events:", "Latency (ms):", "95th percentile:", "99th percentile:", "sum:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "thds: 2 tps: ") || !strings.Contains(errOut, "lat (ms,95%): ") {
		t.Errorf("no sysbench live line:\n%s", errOut)
	}
	r, err := results.Read(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if r.Workload != "sysbench/oltp_point_select" || r.Summary.TPS <= 0 || r.Summary.QPS <= 0 {
		t.Fatalf("workload %q tps %v qps %v", r.Workload, r.Summary.TPS, r.Summary.QPS)
	}
	if _, _, err := runRoot(t, "sysbench", "cleanup", "--target", db, "--tables", "2"); err != nil {
		t.Fatal(err)
	}
}

func TestSysbenchSweepStep(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite://" + filepath.Join(dir, "sb.db")
	if _, _, err := runRoot(t, "sysbench", "prepare", "--target", db, "--tables", "1", "--table-size", "300"); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	app := &App{Out: &out, Err: &errb, Getenv: func(string) string { return "" }, Version: "test"}
	st := sweep.Step{CaseID: "S", Workload: "sysbench/oltp_read_only", Target: db, Concurrency: 2,
		Duration: time.Second, Options: map[string]string{"tables": "1", "table_size": "300", "rand-type": "uniform"}}
	r, err := stepRunner{app: app}.RunStep(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	if r.Workload != "sysbench/oltp_read_only" || r.Summary.TPS <= 0 || r.Config["threads"] != 2 || r.Config["rand_type"] != "uniform" {
		t.Fatalf("step result: %s tps %v config %v", r.Workload, r.Summary.TPS, r.Config)
	}
	// Steps print no live lines unless the plan sets report_interval.
	if strings.Contains(errb.String(), "tps: ") {
		t.Errorf("a step without report_interval printed live lines:\n%s", errb.String())
	}
	errb.Reset()
	st.ReportInterval = 500 * time.Millisecond
	if _, err := (stepRunner{app: app}).RunStep(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errb.String(), "thds: 2 tps: ") {
		t.Errorf("report_interval 500ms: no live line:\n%s", errb.String())
	}
	st.ReportInterval = 0
	st.Options = map[string]string{"warehouses": "1"}
	if _, err := (stepRunner{app: app}).RunStep(context.Background(), st); ExitCode(err) != ExitUsage {
		t.Fatalf("unknown option: %v", err)
	}
}
