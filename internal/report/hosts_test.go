package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchpress/internal/results"
)

// TestWatchedSections checks the host, process and database sections of
// the watched fixture (a real 2-case MariaDB sweep watching the load
// machine directly and through node_exporter + process-exporter), and that
// they are absent, not zero, for results that watched nothing.
func TestWatchedSections(t *testing.T) {
	for _, tc := range []struct {
		name    string
		present bool
	}{{"watched", true}, {"poc", false}, {"mixed", false}} {
		t.Run(tc.name, func(t *testing.T) {
			files, err := Generate(copyTree(t, filepath.Join("testdata", tc.name)))
			if err != nil {
				t.Fatal(err)
			}
			md, _ := os.ReadFile(files[0])
			for _, want := range []string{"### Servers per step", "| Concurrency | Host | Role | CPU % | user/sys/iowait % | NIC rx KB/s | NIC tx KB/s |",
				"TPS per CPU core", "| mariadbd |", "### Database counters per step", "generated 74.7 MiB raw: compression",
				"charts/cpu-T1.svg", "charts/net-T2.svg", "### Bottlenecks"} {
				if got := strings.Contains(string(md), want); got != tc.present {
					t.Errorf("report contains %q: %v, want %v", want, got, tc.present)
				}
			}
			if !tc.present {
				return
			}
			// Seed 000's table: every watched host of every step has a
			// non-zero CPU and (loopback) network figure.
			rows := 0
			for _, line := range strings.Split(string(md), "\n") {
				f := strings.Split(line, " | ")
				if len(f) < 10 || (f[2] != "load" && f[2] != "storage") {
					continue
				}
				rows++
				if f[3] == "0.0" || f[7] == "0" || f[8] == "0" {
					t.Errorf("zero figures in host row %q", line)
				}
			}
			if rows != 8 {
				t.Errorf("%d host rows, want 8 (2 cases x 2 steps x 2 hosts)", rows)
			}
		})
	}
}

// A step whose counters' session failed has no commit figures: the row says
// so instead of showing 0 server and 0 tool commits.
func TestDBTableCountersError(t *testing.T) {
	ok := func(n int, db *results.DBFigures) *Step {
		return &Step{Concurrency: n, Run: &results.Run{Status: "ok", Summary: results.Summary{DurationS: 10},
			Watch: &results.Watch{Database: db}}}
	}
	c := &Case{Steps: []*Step{
		ok(16, &results.DBFigures{Kind: "postgres", Counters: map[string]float64{"xact_commit": 100}, ServerCommits: 100, ToolCommits: 99, CommitCheck: "agree"}),
		ok(32, &results.DBFigures{Kind: "postgres", Error: "database counters: FATAL: terminating connection due to administrator command (SQLSTATE 57P01)"}),
	}}
	tbl := dbTable(c)
	tests := []struct {
		row  int
		want []string // the last three cells
	}{
		{0, []string{"100", "99", "agree"}},
		{1, []string{"-", "-", "no figures: database counters: FATAL: terminating connection due to administrator command (SQLSTATE 57P01)"}},
	}
	if len(tbl.Rows) != len(tests) {
		t.Fatalf("rows %v", tbl.Rows)
	}
	for _, tc := range tests {
		r := tbl.Rows[tc.row]
		if got := r[len(r)-3:]; strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("row %d ends %q, want %q", tc.row, got, tc.want)
		}
	}
}
