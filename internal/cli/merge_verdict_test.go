package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
)

// mergeParts writes the two partitions of one synthetic run, each with
// the given open-loop target rate (0: closed loop), and returns their paths.
func mergeParts(t *testing.T, ratePerPart float64) []string {
	t.Helper()
	dir := t.TempDir()
	start := time.Date(2026, 11, 26, 6, 0, 0, 0, time.UTC)
	var paths []string
	for i := range 2 {
		s := metrics.NewSnapshot(1, 0)
		s.Counts[0].OK = 1000
		s.OKHist[0] = metrics.NewHistogram()
		for v := int64(1); v <= 1000; v++ {
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
				Ops: map[string]results.IntervalOp{"op": {Count: 100}}})
		}
		crit := results.Criteria{}
		if ratePerPart > 0 {
			r.Rate = &results.RateFigures{TargetPerS: ratePerPart, AchievedPerS: 100, Arrivals: "uniform"}
			r.Config["rate"] = ratePerPart
			crit.TargetRate = ratePerPart
		}
		results.Judge(r, crit)
		p := filepath.Join(dir, "part"+string(rune('0'+i))+".json")
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
