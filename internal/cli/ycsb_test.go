package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchpress/internal/results"
	"benchpress/internal/sweep"
)

func TestYCSBFlagValidation(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite://" + filepath.Join(dir, "none.db")
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"missing workload", []string{"ycsb", "run"}, []string{"missing WORKLOAD"}},
		{"unknown workload", []string{"ycsb", "run", "z"}, []string{`unknown YCSB workload "z"`}},
		{"custom without file", []string{"ycsb", "run", "custom"}, []string{"--properties FILE"}},
		{"missing file", []string{"ycsb", "run", "custom", "--properties", filepath.Join(dir, "nope")}, []string{"--properties"}},
		{"all problems at once", []string{"ycsb", "run", "a", "-p", "typo=1", "-p", "novalue", "--threads", "0", "--rate", "-5", "--records", "-1"},
			[]string{`unknown property "typo"`, "want name=value", "--threads must be >= 1", "--rate must not be negative", "--records"}},
		{"no end", []string{"ycsb", "run", "a", "--operations", "0"}, []string{"set --operations or --time"}},
		{"bad property value", []string{"ycsb", "run", "a", "-p", "requestdistribution=gauss"}, []string{"requestdistribution"}},
		{"load threads", []string{"ycsb", "load", "a", "--threads", "0"}, []string{"--threads must be >= 1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := runRoot(t, append(append([]string{}, c.args...), "--target", db)...)
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

func TestYCSBEndToEndSQLite(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite://" + filepath.Join(dir, "y.db")
	jsonPath := filepath.Join(dir, "y.json")
	out, _, err := runRoot(t, "ycsb", "load", "a", "--target", db, "--records", "500", "--threads", "2")
	if err != nil || !strings.Contains(out, "[OVERALL], Throughput(ops/sec)") {
		t.Fatalf("load: %v\n%s", err, out)
	}
	if _, _, err := runRoot(t, "ycsb", "run", "a", "--target", db, "--records", "600", "--time", "1"); ExitCode(err) != ExitMismatch {
		t.Fatalf("record mismatch: %v", err)
	}
	out, errOut, err := runRoot(t, "ycsb", "run", "a", "--target", db, "--records", "500", "--threads", "2",
		"--time", "1", "--report-interval", "1", "--json", jsonPath,
		"-p", "db.passwd=s3cret", "-p", "db.url=jdbc:mysql://h/db?user=u&password=s3cret")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{"READ   - Takes(s): ", "UPDATE - Takes(s): ", "Count: ", "Avg(us): ", "99th(us): ", "99.99th(us): ",
		"TOTAL  - Takes(s)", "[OVERALL], RunTime(ms), ", "[OVERALL], Throughput(ops/sec), ", "[READ], Return=OK, "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "| READ - Count: ") {
		t.Errorf("no live line:\n%s", errOut)
	}
	r, err := results.Read(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if r.Workload != "ycsb/a" || r.Summary.TPS <= 0 {
		t.Fatalf("workload %q tps %v", r.Workload, r.Summary.TPS)
	}
	// Binding passwords (JDBC's db.passwd, one in db.url) are saved masked.
	if b, _ := os.ReadFile(jsonPath); strings.Contains(string(b), "s3cret") {
		t.Errorf("the result holds a password property's value")
	}
	// A sweep step on the same data, by operation count from -p.
	var o, e bytes.Buffer
	app := &App{Out: &o, Err: &e, Getenv: func(string) string { return "" }, Version: "test"}
	st := sweep.Step{CaseID: "Y", Workload: "ycsb/c", Target: db, Concurrency: 2, Duration: time.Second,
		Options: map[string]string{"records": "500", "p": "requestdistribution=uniform"}}
	sr, err := stepRunner{app: app}.RunStep(context.Background(), st)
	if err != nil || sr.Summary.TPS <= 0 || sr.Config["threads"] != 2 {
		t.Fatalf("step: %v %+v", err, sr)
	}
	if _, _, err := runRoot(t, "ycsb", "cleanup", "--target", db); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runRoot(t, "ycsb", "run", "a", "--target", db, "--records", "500", "--time", "1"); ExitCode(err) != ExitNotPrepared {
		t.Fatalf("after cleanup: %v", err)
	}
}
