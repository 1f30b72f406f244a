package report

import (
	"strings"
	"testing"

	"benchpress/internal/results"
)

func TestCompareFilesAndDirs(t *testing.T) {
	d, err := Compare("testdata/poc/T1-1/64.json", "testdata/poc/T1-2/64.json")
	if err != nil {
		t.Fatal(err)
	}
	md := string(d.Markdown())
	for _, want := range []string{"| tpmC | 258461.54 | 213333.33 | -17.46% |", "| p95 ms | 16.05 | 19.44 | +21.12% |", "| status | ok | ok |  |"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
	d, err = Compare("testdata/poc", "testdata/poc")
	if err != nil {
		t.Fatal(err)
	}
	if md := string(d.Markdown()); !strings.Contains(md, "## Case T1-1") || !strings.Contains(md, "| 64 | 258461.54 | 258461.54 | 0.00% | 1.000x |") {
		t.Errorf("dir compare:\n%s", md)
	}
	if _, err := Compare("testdata/poc", "testdata/mixed"); err == nil || !strings.Contains(err.Error(), "no case in common") {
		t.Errorf("want no-case-in-common error, got %v", err)
	}
	if _, err := Compare("testdata/poc", "testdata/poc/T1-1/1.json"); err == nil {
		t.Error("want error for file vs dir")
	}
}

func TestCompareWarnsOnDifferentExperiments(t *testing.T) {
	a := &results.Run{Workload: "tpcc", TargetKind: "mysql", Config: map[string]any{"warehouses": 4, "terminals": 64, "seed": 1, "isolation": "server default"}}
	b := &results.Run{Workload: "tpcc", TargetKind: "mysql", Config: map[string]any{"warehouses": 4, "terminals": 128, "seed": 2, "isolation": "read-committed"}}
	w := ConfigWarnings(a, b)
	if len(w) != 1 || !strings.Contains(w[0], "terminals: A 64, B 128") {
		t.Fatalf("warnings %q", w)
	}
	d := ConfigDiff(a, b)
	if d == nil || len(d.Rows) != 2 || d.Rows[0][0] != "isolation" || d.Rows[1][0] != "terminals" {
		t.Fatalf("diff %+v", d)
	}
	c := &results.Run{Workload: "sysbench/oltp_read_write", TargetKind: "postgres", Config: map[string]any{"threads": 64}}
	if w := ConfigWarnings(a, c); len(w) < 3 {
		t.Fatalf("workload, kind and scale differences not all named: %q", w)
	}
	if ConfigDiff(a, a) != nil {
		t.Fatal("a run differs from itself")
	}
}

// A run that measured nothing (a step refused at start) shows "-" for
// its figures and no difference, never 0.00 and -100 %.
func TestCompareRunsUnmeasured(t *testing.T) {
	ok := &results.Run{Status: "ok", Verdict: results.VerdictOK, Workload: "tpcc",
		Summary: results.Summary{TpmC: 29661.17, TPS: 1095, AvgMS: 7.3, P95MS: 22.34, P99MS: 52.93, SuccessRate: 100, DurationS: 10}}
	refused := &results.Run{Status: "failed", Verdict: results.VerdictFailed, Workload: "tpcc", Error: "106 of 256 connections failed at start"}
	tests := []struct {
		name string
		a, b *results.Run
		want map[string][3]string // figure: A, B, difference
	}{
		{"B refused", ok, refused, map[string][3]string{"tpmC": {"29661.17", "-", "-"}, "p95 ms": {"22.34", "-", "-"}, "success rate %": {"100.00", "-", "-"}}},
		{"both measured", ok, ok, map[string][3]string{"tpmC": {"29661.17", "29661.17", "0.00%"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tbl := CompareRuns("A", "B", tc.a, tc.b)
			seen := 0
			for _, r := range tbl.Rows {
				if w, ok := tc.want[r[0]]; ok {
					seen++
					if got := [3]string{r[1], r[2], r[3]}; got != w {
						t.Errorf("%s: %q, want %q", r[0], got, w)
					}
				}
			}
			if seen != len(tc.want) {
				t.Errorf("rows %v", tbl.Rows)
			}
		})
	}
}

// Two run files, one of them degraded (the real proxy sweep's step 256):
// the comparison says so above the figures, with the verdict's reasons.
func TestCompareRunsWarnsOnVerdict(t *testing.T) {
	d, err := Compare("testdata/proxy/proxy/8.json", "testdata/proxy/proxy/256.json")
	if err != nil {
		t.Fatal(err)
	}
	md := string(d.Markdown())
	if !strings.Contains(md, "**Warning:** B is degraded: check failed: p90 payment <= 5s; its figures are what was measured, not a valid result.") {
		t.Errorf("no verdict warning in\n%s", md)
	}
	if strings.Contains(md, "A is") {
		t.Errorf("A (verdict ok) warned about in\n%s", md)
	}
}
