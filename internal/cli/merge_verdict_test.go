package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchpress/internal/errclass"
	"benchpress/internal/metrics"
	"benchpress/internal/results"
)

// mergeParts writes the two partitions of one synthetic run, each with
// the given open-loop target rate (0: closed loop), all 1000 transactions
// per partition successful, judged at the default bound; it returns their
// paths.
func mergeParts(t *testing.T, ratePerPart float64) []string {
	return writeParts(t, partSpec{rate: ratePerPart, bound: results.DefaultMinSuccessPct})
}

// partSpec shapes the partitions writeParts writes.
type partSpec struct {
	rate   float64 // open-loop target rate per partition (0: closed loop)
	errors int64   // failed of the 1000 transactions per partition
	bound  float64 // the --min-success each partition is judged against
}

// writeParts writes the two partitions of one synthetic run and returns
// their paths.
func writeParts(t *testing.T, ps partSpec) []string {
	t.Helper()
	dir := t.TempDir()
	start := time.Date(2026, 11, 26, 6, 0, 0, 0, time.UTC)
	ok := 1000 - ps.errors
	var paths []string
	for i := range 2 {
		s := metrics.NewSnapshot(1, 0)
		s.Counts[0].OK = ok
		s.Counts[0].Errs[errclass.Deadlock] = ps.errors
		s.OKHist[0] = metrics.NewHistogram()
		for v := int64(1); v <= ok; v++ {
			if err := s.OKHist[0].RecordValue(v * 10); err != nil {
				t.Fatal(err)
			}
		}
		r := &results.Run{FormatVersion: results.FormatVersion, Workload: "synthetic", TargetKind: "mysql", Status: "ok",
			Config: map[string]any{"threads": float64(4)}}
		results.Fill(r, s, []string{"op"}, 10)
		from := start.Add(time.Second)
		r.Partition = &results.Partition{Index: i, Count: 2, RunID: "ux", Terminals: 2, Sync: "barrier", StartAt: start,
			ClockRTTMS: 0.1, WindowFrom: from, WindowTo: from.Add(10 * time.Second)}
		for sec := 1; sec <= 10; sec++ {
			r.Series = append(r.Series, results.Interval{T: float64(sec), DurS: 1, Phase: "measure",
				Ops: map[string]results.IntervalOp{"op": {Count: ok / 10, Errors: ps.errors / 10}}})
		}
		crit := results.Criteria{MinSuccessPct: ps.bound}
		if ps.rate > 0 {
			r.Rate = &results.RateFigures{TargetPerS: ps.rate, AchievedPerS: 100, Arrivals: "uniform"}
			r.Config["rate"] = ps.rate
			crit.TargetRate = ps.rate
		}
		results.Judge(r, crit)
		p := filepath.Join(dir, fmt.Sprintf("part%d.json", i))
		if err := results.Write(p, r); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// merge prints the merged verdict and exits with its code, as a run does:
// a merged run that missed its rate is not exit 0.
func TestMergeVerdictExitCode(t *testing.T) {
	tests := []struct {
		name    string
		rate    float64
		code    int
		verdict string
	}{
		{"healthy partitions", 0, 0, "verdict: OK"},
		{"rate missed in every partition", 1000, ExitDegraded, "verdict: DEGRADED"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parts := mergeParts(t, tc.rate)
			out := filepath.Join(t.TempDir(), "merged.json")
			stdout, stderr, code := runCLI(t, nil, append([]string{"merge", out}, parts...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			if !strings.Contains(stdout, tc.verdict) {
				t.Errorf("stdout lacks %q:\n%s", tc.verdict, stdout)
			}
			m, err := results.Read(out)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.ToLower(strings.TrimPrefix(tc.verdict, "verdict: ")); m.Verdict != want {
				t.Errorf("merged verdict %q, want %q", m.Verdict, want)
			}
		})
	}
}
