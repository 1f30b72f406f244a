package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchpress/internal/results"
	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// TestSweepEndToEnd runs a real plan (2 cases x ladder 1,4 x 5 s of TPC-C)
// on SQLite and on MariaDB through `benchpress sweep`, and checks that every
// step was saved and the report is complete. On MariaDB the second case
// lists the same server twice (two endpoints, round-robin).
func TestSweepEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: end-to-end sweeps skipped")
	}
	sqlite := &target.Target{Kind: target.SQLite, Endpoints: []string{filepath.Join(t.TempDir(), "sweep.db")}}
	for _, tg := range []*target.Target{sqlite, testdb.For(t, target.MySQL, "cli_sweep")} {
		t.Run(string(tg.Kind), func(t *testing.T) {
			url := urlOf(tg)
			if _, stderr, code := runCLI(t, nil, "tpcc", "prepare", "--target", url, "--drop"); code != 0 {
				t.Fatalf("prepare: exit %d: %s", code, stderr)
			}
			second := url
			if tg.Kind == target.MySQL {
				host, port, _ := strings.Cut(tg.Endpoints[0], ":")
				if host == "127.0.0.1" {
					second = strings.Replace(url, tg.Endpoints[0], tg.Endpoints[0]+",localhost:"+port, 1)
				}
			}
			dir := t.TempDir()
			plan := filepath.Join(dir, "plan.yaml")
			os.WriteFile(plan, []byte(`name: e2e
targets:
  one: "`+url+`"
  two: "`+second+`"
defaults:
  workload: tpcc
  warmup: 1s
  duration: 5s
ladder: [1, 4]
cases:
  - id: T1-1
    target: one
  - id: T1-2
    target: two
compare:
  - {name: lb, base: T1-1, other: T1-2}
`), 0o644)
			out := filepath.Join(dir, "out")
			stdout, stderr, code := runCLI(t, nil, "sweep", plan, "--out", out)
			if code != 0 {
				t.Fatalf("sweep: exit %d\n%s\n%s", code, stdout, stderr)
			}
			for _, c := range []string{"T1-1", "T1-2"} {
				for _, n := range []string{"1", "4"} {
					r, err := results.Read(filepath.Join(out, c, n+".json"))
					if err != nil {
						t.Fatalf("step %s/%s: %v", c, n, err)
					}
					if r.Status != "ok" || r.Summary.TpmC <= 0 {
						t.Errorf("step %s/%s: status %s tpmC %.1f", c, n, r.Status, r.Summary.TpmC)
					}
				}
			}
			md, err := os.ReadFile(filepath.Join(out, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"## Case T1-1", "## Case T1-2", "lb", "Saturation", "charts/throughput-tpcc.svg", "Server version"} {
				if !strings.Contains(string(md), want) {
					t.Errorf("report.md lacks %q", want)
				}
			}
			html, err := os.ReadFile(filepath.Join(out, "report.html"))
			if err != nil || strings.Count(string(html), "<svg") < 3 {
				t.Errorf("report.html missing or without inline charts (%v)", err)
			}
			if strings.Contains(string(md)+string(html), ":"+tg.Password+"@") && tg.Password != "" {
				t.Errorf("password in the report")
			}
		})
	}
}
