package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchpress/internal/results"
)

// TestSweepFollowsTheCLI: a sweep accepts what `<workload> run` accepts
// (oltp_read_write_split, tidb:// targets) and its --dry-run rejects, with
// exit code 2 and the line, what a run would reject (an unknown key).
func TestSweepFollowsTheCLI(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite://" + filepath.Join(dir, "sb.db")
	if _, stderr, code := runCLI(t, nil, "sysbench", "prepare", "--target", db, "--tables", "1", "--table-size", "200"); code != 0 {
		t.Fatalf("prepare: exit %d: %s", code, stderr)
	}
	plan := filepath.Join(dir, "p.yaml")
	write := func(s string) {
		if err := os.WriteFile(plan, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("name: s\ntargets: {a: '" + db + "'}\ndefaults: {workload: sysbench/oltp_read_write_split, tables: 1, table_size: 200, warmup: 0s, duration: 1s}\nladder: [2]\ncases: [{id: S}]\n")
	out := filepath.Join(dir, "out")
	if stdout, stderr, code := runCLI(t, nil, "sweep", plan, "--out", out, "--no-report"); code != 0 {
		t.Fatalf("sweep: exit %d\n%s\n%s", code, stdout, stderr)
	}
	r, err := results.Read(filepath.Join(out, "S", "2.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "ok" || r.Workload != "sysbench/oltp_read_write_split" || r.Summary.TPS <= 0 || r.Config["threads"] != float64(2) {
		t.Fatalf("step: status %s workload %s tps %v threads %v (%s)", r.Status, r.Workload, r.Summary.TPS, r.Config["threads"], r.Error)
	}

	write("name: s\ntargets: {a: 'tidb://root@127.0.0.1:4000/db', b: 'ftp://x/y'}\ndefaults:\n  workload: tpcc\n  terminalz: 8\ncases:\n  - {id: A, target: a, mysql_client: driver}\n  - {id: B, target: b, overrides: {mix: 'x'}}\n")
	_, stderr, code := runCLI(t, nil, "sweep", plan, "--dry-run")
	if code != ExitUsage {
		t.Fatalf("dry run: exit %d, want %d: %s", code, ExitUsage, stderr)
	}
	for _, want := range []string{`p.yaml:2: target "b": unknown target scheme "ftp"`, `p.yaml:5: defaults: unknown tpcc option "terminalz"`,
		`p.yaml:8: case "B": --mix`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("dry run output lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "tidb") {
		t.Errorf("tidb:// rejected:\n%s", stderr)
	}
}
