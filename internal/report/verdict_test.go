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
	files, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, want := range []string{"FAILED: success rate 65.00 %", "Step 8 verdict failed", "| 8 | window | resource_limit | 1461 | oltp_read_write | 42 |",
		"| 8 | warm-up | lost_connection |  | oltp_read_write | 1 | commit: i/o timeout |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	ds, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p := ds.Cases[0].Peak(); p == nil || p.Concurrency != 1 {
		t.Fatalf("peak %+v, want the only step judged ok (1)", p)
	}
}
