package cli

import (
	"strings"
	"testing"
	"time"

	"benchpress/internal/results"
	"benchpress/internal/runner"
)

// An outage is judged the same whatever --report-interval is: the flag
// only sets how often the live line is printed. A 7 s stall of a run doing
// 200 operations a second was an ok run at --report-interval 5s (and would
// have been up to 19 s at the default 10 s).
func TestFinalizeRunOutageIgnoresReportInterval(t *testing.T) {
	counts := []int64{200, 200, 200, 200, 0, 0, 0, 0, 0, 0, 0, 200, 200, 200, 200}
	for _, ri := range []time.Duration{0, time.Second, 5 * time.Second, 10 * time.Second, time.Minute} {
		t.Run(ri.String(), func(t *testing.T) {
			run := &results.Run{Status: "ok", Summary: results.Summary{Transactions: 1600, SuccessRate: 100, TPS: 1600 / 15.0, DurationS: 15}}
			for i, n := range counts {
				run.Series = append(run.Series, results.Interval{T: float64(i + 1), DurS: 1, Phase: "measure",
					Ops: map[string]results.IntervalOp{"op": {Count: n}}})
			}
			app := &App{}
			app.policy.minSuccess = results.DefaultMinSuccessPct
			finalizeRun(app, runner.Config{ReportInterval: ri}, &runner.Result{}, run, nil)
			if run.Verdict != results.VerdictDegraded {
				t.Fatalf("verdict %q (%v), want degraded", run.Verdict, run.VerdictReasons)
			}
			if !strings.Contains(strings.Join(run.VerdictReasons, "; "), "no operation completed for 7 s") {
				t.Fatalf("reasons %v lack the 7 s outage", run.VerdictReasons)
			}
		})
	}
}
