package results

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

var mergeOps = []string{"new_order", "payment"}

// syntheticParts records the same random samples once into one snapshot and
// split over n partitions (sample i goes to partition i%n), and returns the
// partitions' results and the one-process result.
func syntheticParts(t *testing.T, n int) ([]*Run, *Run) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	whole := metrics.NewSnapshot(len(mergeOps), 1)
	snaps := make([]*metrics.Snapshot, n)
	for i := range snaps {
		snaps[i] = metrics.NewSnapshot(len(mergeOps), 1)
	}
	record := func(s *metrics.Snapshot, op int, us int64, outcome int) {
		c := &s.Counts[op]
		h := &s.OKHist[op]
		switch outcome {
		case 0:
			c.OK++
		case 1:
			c.Rollback++
		default:
			c.Errs[target.ClassDeadlock]++
			h = &s.ErrHist[op]
		}
		if *h == nil {
			*h = metrics.NewHistogram()
		}
		if err := (*h).RecordValue(us); err != nil {
			t.Fatal(err)
		}
		s.Extra[0] += 10
	}
	for i := 0; i < 20000; i++ {
		op := rng.IntN(len(mergeOps))
		us := int64(rng.ExpFloat64()*3000) + 1 + int64(i%7)*1000
		outcome := 0
		if rng.IntN(100) == 0 {
			outcome = 1
		} else if rng.IntN(50) == 0 {
			outcome = 2
		}
		record(whole, op, us, outcome)
		record(snaps[i%n], op, us, outcome)
	}
	start := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	mk := func(s *metrics.Snapshot, secs float64) *Run {
		r := &Run{FormatVersion: FormatVersion, Workload: "tpcc", TargetKind: "mysql", Status: "ok",
			Config: map[string]any{"terminals": float64(8), "warehouses": float64(4)}}
		Fill(r, s, mergeOps, secs)
		return r
	}
	parts := make([]*Run, n)
	for i, s := range snaps {
		secs := 60 + float64(i)*0.01
		r := mk(s, secs)
		from := start.Add(5*time.Second + time.Duration(i)*time.Millisecond)
		r.Partition = &Partition{Index: i, Count: n, RunID: "r1", Terminals: 8 / n, Sync: "barrier",
			StartAt: start, ClockRTTMS: 0.4, WindowFrom: from, WindowTo: from.Add(time.Duration(secs * float64(time.Second))),
			ExtraNames: []string{"statements"}, Extras: []int64{s.Extra[0]}}
		r.Series = []Interval{
			{T: 1.001, Phase: "warmup", TPS: 10, Ops: map[string]IntervalOp{"new_order": {Count: 10, AvgMS: 2, P95MS: float64(3 + i), P99MS: 4}}},
			{T: 2.002, Phase: "measure", TPS: 20, Ops: map[string]IntervalOp{"new_order": {Count: 20, AvgMS: float64(1 + i), P95MS: 3, P99MS: 4}}},
		}
		r.Driver = &Driver{CPUUserS: 1, CPUSysS: 0.5, PeakRSSMB: 30, MachineBusyPct: 40 + float64(i), Cores: 2}
		r.Notes = []string{"note"}
		parts[i] = r
	}
	var mean float64
	for _, p := range parts {
		mean += p.Summary.DurationS
	}
	return parts, mk(whole, mean/float64(n))
}

func TestMergeIsExact(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		parts, whole := syntheticParts(t, n)
		got, err := Merge(parts, MergeOptions{})
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		for key, enc := range whole.Histograms {
			want, _ := DecodeHistogram(enc)
			h, err := DecodeHistogram(got.Histograms[key])
			if err != nil {
				t.Fatalf("n=%d %s: %v", n, key, err)
			}
			if !h.Equals(want) {
				t.Errorf("n=%d: merged histogram %s differs from the one of all samples", n, key)
			}
		}
		if len(got.Histograms) != len(whole.Histograms) {
			t.Errorf("n=%d: %d histograms, want %d", n, len(got.Histograms), len(whole.Histograms))
		}
		if got.Summary != whole.Summary {
			t.Errorf("n=%d: summary\n got %+v\nwant %+v", n, got.Summary, whole.Summary)
		}
		for i := range whole.Ops {
			g, w := got.Ops[i], whole.Ops[i]
			if g.Count != w.Count || g.Rollbacks != w.Rollbacks || g.Errors != w.Errors || g.Latency != w.Latency ||
				g.ErrClasses["deadlock"] != w.ErrClasses["deadlock"] {
				t.Errorf("n=%d op %s:\n got %+v\nwant %+v", n, w.Name, g, w)
			}
		}
		if len(got.Notes) != n || got.Notes[n-1] != fmt.Sprintf("partition %d: note", n-1) {
			t.Errorf("n=%d: notes %q", n, got.Notes)
		}
		if got.Merged == nil || len(got.Merged.Partitions) != n || got.Partition != nil {
			t.Fatalf("n=%d: merged record %+v", n, got.Merged)
		}
		if got.Driver.CPUUserS != float64(n) || got.Driver.MachineBusyPct != 40+float64(n-1) {
			t.Errorf("n=%d: driver %+v", n, got.Driver)
		}
		// Per transaction attempted, failed ones included, as one process
		// divides (monitor.DriverFigures); the parts have deadlocks.
		if all := whole.Summary.Transactions + whole.Summary.Errors; whole.Summary.Errors == 0 ||
			math.Abs(got.Driver.CPUPerTxnUS-1.5*float64(n)*1e6/float64(all)) > 1e-6 {
			t.Errorf("n=%d: CPU per transaction %v us, want %v over %d transactions and errors",
				n, got.Driver.CPUPerTxnUS, 1.5*float64(n)*1e6/float64(all), all)
		}
		if len(got.Series) != 2 || got.Series[1].Ops["new_order"].Count != int64(20*n) || got.Series[0].Ops["new_order"].P95MS != float64(3+n-1) {
			t.Errorf("n=%d: series %+v", n, got.Series)
		}
	}
}

func TestMergeSummarizeSeesMergedCounters(t *testing.T) {
	parts, whole := syntheticParts(t, 3)
	var seen int64
	_, err := Merge(parts, MergeOptions{Summarize: func(_ *Run, cum *metrics.Snapshot) { seen = cum.Extra[0] }})
	if err != nil {
		t.Fatal(err)
	}
	if want := 10 * (whole.Summary.Transactions + whole.Summary.Errors); seen != want {
		t.Errorf("merged counter %d, want %d", seen, want)
	}
}

func TestMergeRefuses(t *testing.T) {
	cases := []struct {
		name string
		edit func(p []*Run) []*Run
		want string
	}{
		{"missing partition", func(p []*Run) []*Run { return p[:2] }, "partition(s) 2 of 3 missing"},
		{"overlapping", func(p []*Run) []*Run { p[2].Partition.Index = 1; return p }, "both partition 1"},
		{"other workload", func(p []*Run) []*Run { p[1].Workload = "ycsb/a"; return p }, "workload"},
		{"other count", func(p []*Run) []*Run { p[1].Partition.Count = 4; return p }, "partition count"},
		{"other scale", func(p []*Run) []*Run {
			p[2].Config = map[string]any{"terminals": float64(8), "warehouses": float64(8)}
			return p
		}, "configuration (warehouses)"},
		{"not a partition", func(p []*Run) []*Run { p[0].Partition = nil; return p }, "not a partition"},
		{"interrupted", func(p []*Run) []*Run { p[1].Status = "interrupted"; return p }, "not ok"},
		{"window off", func(p []*Run) []*Run {
			p[1].Partition.WindowFrom = p[1].Partition.WindowFrom.Add(2 * time.Second)
			return p
		}, "window start is 2.001s"},
		{"windows apart beyond the first's reach", func(p []*Run) []*Run {
			// Each 0.3 s from partition 0's, within its tolerance; 0.6 s
			// from each other's: every pair is compared.
			p[1].Partition.WindowFrom = p[1].Partition.WindowFrom.Add(-300 * time.Millisecond)
			p[2].Partition.WindowFrom = p[2].Partition.WindowFrom.Add(300 * time.Millisecond)
			return p
		}, "partition 2's window start is 601ms from partition 1's"},
		{"other run", func(p []*Run) []*Run { p[2].Partition.RunID = "r2"; return p }, "run id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parts, _ := syntheticParts(t, 3)
			got, err := Merge(c.edit(parts), MergeOptions{})
			if err == nil || !errors.Is(err, ErrNotMergeable) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want ErrNotMergeable mentioning %q", err, c.want)
			}
			if got != nil {
				t.Fatal("a refused merge returned a result")
			}
		})
	}
}

// TestMergeEndedByCount: partitions that stop when their share of the
// operation count is done end at different instants; the merge accepts
// that and measures the run from the first start to the last end.
func TestMergeEndedByCount(t *testing.T) {
	parts, _ := syntheticParts(t, 2)
	for _, p := range parts {
		p.Partition.EndedByCount = true
	}
	late := parts[1].Partition
	late.WindowTo = late.WindowTo.Add(2 * time.Second)
	got, err := Merge(parts, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := late.WindowTo.Sub(parts[0].Partition.WindowFrom).Seconds()
	if got.Summary.DurationS != want {
		t.Errorf("duration %v, want the span %v", got.Summary.DurationS, want)
	}
	parts[0].Partition.EndedByCount, parts[1].Partition.EndedByCount = false, false
	if _, err := Merge(parts, MergeOptions{}); err == nil || !strings.Contains(err.Error(), "window end") {
		t.Errorf("windows ending 2 s apart without an operation count merged: %v", err)
	}
}
