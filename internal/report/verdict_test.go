package report

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"benchpress/internal/results"
)

// A step whose verdict is not ok is marked, its errors are listed, and it
// is never the peak even with the highest throughput.
func TestReportMarksStepsNotOK(t *testing.T) {
	dir := t.TempDir()
	mk := func(conc int, tps float64, verdict string, samples []results.ErrorSample, status string) {
		r := &results.Run{FormatVersion: results.FormatVersion, Workload: "sysbench/oltp_read_write", Target: "mysql://bench@h/db",
			Status: status, Verdict: verdict, Config: map[string]any{"threads": conc}, ErrorSamples: samples,
			Summary: results.Summary{TPS: tps, Transactions: int64(tps * 10), DurationS: 10, SuccessRate: 100}}
		if verdict != results.VerdictOK {
			r.VerdictReasons = []string{"success rate 65.00 % is below --min-success 99 %"}
		}
		if err := results.Write(filepath.Join(dir, "A", strconv.Itoa(conc)+".json"), r); err != nil {
			t.Fatal(err)
		}
	}
	mk(1, 100, results.VerdictOK, nil, "ok")
	mk(8, 500, results.VerdictFailed, []results.ErrorSample{{Class: "resource_limit", Code: "1461", Op: "oltp_read_write",
		Message: "prepare: Error 1461: Can't create more than max_prepared_stmt_count statements", Count: 42, Phase: results.PhaseWindow},
		{Class: "lost_connection", Op: "oltp_read_write", Message: "commit: i/o timeout", Count: 1, Phase: results.PhaseWarmup}}, "ok")
	mk(16, 900, results.VerdictOK, nil, "interrupted")
	reportLacks(t, generated(t, dir), "FAILED: success rate 65.00 %", "Step 8 verdict failed", "| 8 | window | resource_limit | 1461 | oltp_read_write | 42 |",
		"| 8 | warm-up | lost_connection |  | oltp_read_write | 1 | commit: i/o timeout |")
	ds, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p := ds.Cases[0].Peak(); p == nil || p.Concurrency != 1 {
		t.Fatalf("peak %+v, want the only step judged ok (1)", p)
	}
}

// Step.notOK names what stands behind a step's figures; comparisons and
// charts mark the step with it.
func TestStepNotOK(t *testing.T) {
	for _, tc := range []struct {
		status, verdict, want string
	}{
		{"ok", results.VerdictOK, ""},
		{"ok", "", ""}, // files from before verdicts
		{"ok", results.VerdictDegraded, "degraded"},
		{"ok", results.VerdictFailed, "failed"},
		{"failed", results.VerdictFailed, "failed"},
		{"interrupted", results.VerdictOK, "interrupted"},
	} {
		s := &Step{Run: &results.Run{Status: tc.status, Verdict: tc.verdict}}
		if got := s.notOK(); got != tc.want {
			t.Errorf("status %q verdict %q: notOK %q, want %q", tc.status, tc.verdict, got, tc.want)
		}
		if got, want := marked("1.00", s), "1.00"; tc.want != "" && got == want || tc.want == "" && got != want {
			t.Errorf("status %q verdict %q: marked %q", tc.status, tc.verdict, got)
		}
	}
}

// A step that ran statements as text for the server's cap says so in its
// notes; one that prepared them all (or ran on a server without the cap)
// does not.
func TestTextStmtNote(t *testing.T) {
	for _, tc := range []struct {
		name string
		plan *results.PreparedStmts
		want string
	}{
		{"no plan (PostgreSQL, text mode)", nil, ""},
		{"all prepared", &results.PreparedStmts{ServerLimit: 16382, Terminals: 8, PerSession: 2027, Prepared: 96, Kinds: 96}, ""},
		{"2048 terminals at the default cap", &results.PreparedStmts{ServerLimit: 16382, Terminals: 2048, PerSession: 7, Prepared: 7, Kinds: 96},
			"7 of 96 statements prepared, the rest as text (max_prepared_stmt_count 16382)"},
	} {
		r := &results.Run{Status: "ok", Verdict: results.VerdictOK, PreparedStatements: tc.plan}
		if got := textStmtNote(r); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		c := &Case{Steps: []*Step{{Concurrency: 8, Run: r}}}
		if notes := stepNotes(c, c.Steps[0]); tc.want != "" && !strings.Contains(notes, tc.want) {
			t.Errorf("%s: step notes %q lack %q", tc.name, notes, tc.want)
		}
	}
}

// The proxy fixture (a real sweep: direct 1024 degraded, proxy 256
// degraded, proxy 1024 failed) marks those steps wherever they stand
// beside others, leaves them out of the mean overhead, crosses them out in
// the charts and names them in the timelines' legends.
func TestComparisonsMarkStepsNotOK(t *testing.T) {
	dir := copyTree(t, filepath.Join("testdata", "proxy"))
	reportLacks(t, generated(t, dir),
		"| 1024 | 9158.49 (degraded) | - (failed) | - |",
		"| 256 | 10067.36 | 1740.29 (degraded) | -82.71% (not ok) |",
		"82.71% (not ok) | 0.173x (not ok) |",
		"Mean overhead over 1 common step(s) judged ok: 86.30% (1 step(s) whose verdict is not ok left out).",
		// proxy's step 1024 failed: its row stays, marked, and is counted.
		"| 1024 | 9158.49 (degraded) | - (failed) | - | - | 6967.30 (degraded) | - | - | 7405.57 (degraded) | - | - |",
		"**1 step(s) without figures on one side**, not compared and left out of the mean: 1024 (proxy failed).",
		"Failed / degraded steps")
	svg, err := os.ReadFile(filepath.Join(dir, "charts", "throughput-tpcc.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "verdict not ok") {
		t.Error("throughput chart has no legend entry for the steps whose verdict is not ok")
	}
	timeline, err := os.ReadFile(filepath.Join(dir, "charts", "timeline-proxy.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(timeline), "c=256 (degraded)") || !strings.Contains(string(timeline), "c=1024 (failed)") {
		t.Error("the proxy case's timeline legend does not name its degraded and failed steps")
	}
}

// generated is the report.md that Generate writes for the results in dir.
func generated(t *testing.T, dir string) string {
	t.Helper()
	files, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// reportLacks fails t for each of wants that md does not contain.
func reportLacks(t *testing.T, md string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}
