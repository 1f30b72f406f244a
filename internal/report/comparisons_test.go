package report

import (
	"path/filepath"
	"strings"
	"testing"

	"benchpress/internal/results"
)

// tpccStep is a TPC-C step at concurrency c with tpmC tpm (verdict ok).
func tpccStep(c int, tpm float64) *Step {
	return &Step{Concurrency: c, Run: &results.Run{FormatVersion: results.FormatVersion, Workload: "tpcc", Status: "ok", Verdict: results.VerdictOK,
		Summary: results.Summary{TpmC: tpm, TPS: tpm / 20, Transactions: int64(tpm), SuccessRate: 100, DurationS: 60, P95MS: 10, P99MS: 20}}}
}

// A concurrency without figures on one side (a failed step at the top of
// the ladder, a step not run) keeps its row, marked, and a line counts it;
// it stays out of the mean overhead.
func TestNamedKeepsStepsWithoutFigures(t *testing.T) {
	failed := tpccStep(256, 0)
	failed.Run.Status, failed.Run.Verdict, failed.Run.Summary = "failed", results.VerdictFailed, results.Summary{}
	cut := tpccStep(256, 0)
	cut.Run.Status, cut.Run.Summary = "interrupted", results.Summary{}
	tests := []struct {
		name    string
		other   *Step // B's step at 256 (nil: not run)
		wantRow []string
		wantOut string // the line counting the steps without figures
	}{
		{"failed on one side", failed, []string{"256", "3000.00", "- (failed)", "-", "-", "10.00", "-", "-", "20.00", "-", "-"},
			"**1 step(s) without figures on one side**, not compared and left out of the mean: 256 (B failed)."},
		{"not run on one side", nil, []string{"256", "3000.00", "- (not run)", "-", "-", "10.00", "-", "-", "20.00", "-", "-"},
			"**1 step(s) without figures on one side**, not compared and left out of the mean: 256 (B not run)."},
		{"interrupted before its window", cut, []string{"256", "3000.00", "- (interrupted)", "-", "-", "10.00", "-", "-", "20.00", "-", "-"},
			"256 (B interrupted)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &Case{ID: "A", Workload: "tpcc", Steps: []*Step{tpccStep(8, 1000), tpccStep(64, 2000), tpccStep(256, 3000)}}
			b := &Case{ID: "B", Workload: "tpcc", Steps: []*Step{tpccStep(8, 900), tpccStep(64, 1800)}}
			if tc.other != nil {
				b.Steps = append(b.Steps, tc.other)
			}
			tbl, lines := named(a, b)
			if len(tbl.Rows) != 3 {
				t.Fatalf("rows %q, want one per concurrency (8, 64, 256)", tbl.Rows)
			}
			if got := strings.Join(tbl.Rows[2], " | "); got != strings.Join(tc.wantRow, " | ") {
				t.Errorf("row\n %s\nwant\n %s", got, strings.Join(tc.wantRow, " | "))
			}
			all := strings.Join(lines, "\n")
			for _, want := range []string{tc.wantOut, "Mean overhead over 2 common steps: 10.00%."} {
				if !strings.Contains(all, want) {
					t.Errorf("lines\n%s\nlack %q", all, want)
				}
			}
		})
	}
}

// A difference from a zero base is no percentage: "n/a", never 0.00 %;
// 0 against 0 is no difference.
func TestDifferenceFromZeroBase(t *testing.T) {
	tests := []struct {
		name        string
		base, other float64
		diff, over  string
	}{
		{"zero to some", 0, 1234, "n/a", "n/a"},
		{"zero to zero", 0, 0, "0.00%", "0.00%"},
		{"some to zero", 100, 0, "-100.00%", "100.00%"},
		{"some to more", 100, 110, "+10.00%", "-10.00%"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := signedPct(Diff(tc.base, tc.other)); got != tc.diff {
				t.Errorf("difference %q, want %q", got, tc.diff)
			}
			if got := pct(Overhead(tc.base, tc.other)); got != tc.over {
				t.Errorf("overhead %q, want %q", got, tc.over)
			}
		})
	}
	a := &results.Run{Status: "ok", Workload: "tpcc", Summary: results.Summary{TpmC: 1000, TPS: 50, SuccessRate: 100, DurationS: 60}}
	b := &results.Run{Status: "ok", Workload: "tpcc", Summary: results.Summary{TpmC: 900, TPS: 45, SuccessRate: 98.996, Errors: 1234, DurationS: 60}}
	rows := map[string][]string{}
	for _, r := range CompareRuns("A", "B", a, b).Rows {
		rows[r[0]] = r
	}
	if got := strings.Join(rows["errors"], " | "); got != "errors | 0 | 1234 | n/a" {
		t.Errorf("errors row %q", got)
	}
	// 98.996 % is below 99: never printed as 99.00.
	if got := strings.Join(rows["success rate %"][:3], " | "); got != "success rate % | 100.00 | 98.99" {
		t.Errorf("success rate row %q", got)
	}
}

// A partition's own result (one process's share, at the whole run's
// concurrency) is marked in the step notes, in compare's warnings and in
// a comparison of directories.
func TestPartitionResultMarked(t *testing.T) {
	const note = "partition 1/2: one process's share (4 terminals), not the run's; merge the partitions with benchpress merge"
	part := func(r *results.Run) *results.Run {
		r.Partition = &results.Partition{Index: 1, Count: 2, Terminals: 4}
		return r
	}
	whole := tpccStep(8, 1000).Run
	whole.Config = map[string]any{"terminals": 8}
	share := part(tpccStep(8, 480).Run)
	share.Config = map[string]any{"terminals": 8}

	c := &Case{ID: "A", Workload: "tpcc", Steps: []*Step{{Concurrency: 8, Run: share}}}
	if got := stepNotes(c, c.Steps[0]); !strings.Contains(got, note) {
		t.Errorf("step notes %q lack %q", got, note)
	}
	if got := stepNotes(c, &Step{Concurrency: 8, Run: whole}); strings.Contains(got, "partition") {
		t.Errorf("a whole run's notes %q speak of a partition", got)
	}

	dir := t.TempDir()
	for path, r := range map[string]*results.Run{"a/T/8.json": whole, "b/T/8.json": share} {
		if err := results.Write(filepath.Join(dir, path), r); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, a, b, want string
	}{
		{"two run files", "a/T/8.json", "b/T/8.json", "**Warning:** B is " + note + "."},
		{"two directories", "a", "b", "**B at 8 is " + note + "**."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Compare(filepath.Join(dir, tc.a), filepath.Join(dir, tc.b))
			if err != nil {
				t.Fatal(err)
			}
			md := string(d.Markdown())
			if !strings.Contains(md, tc.want) {
				t.Errorf("compare lacks %q:\n%s", tc.want, md)
			}
			if strings.Contains(md, "A is partition") || strings.Contains(md, "A at 8 is partition") {
				t.Errorf("the whole run A is called a partition:\n%s", md)
			}
		})
	}
}
