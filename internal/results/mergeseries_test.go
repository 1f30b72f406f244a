package results

import (
	"strings"
	"testing"
)

// measuredSeries is a one-second measured series after a 5 s warm-up, with
// the given operations per interval, each tick off by skew seconds (the
// partition's own clock).
func measuredSeries(skew float64, counts ...int64) []Interval {
	out := make([]Interval, len(counts))
	for i, n := range counts {
		out[i] = Interval{T: 6 + float64(i) + skew, DurS: 1, Phase: "measure", TPS: float64(n),
			Ops: map[string]IntervalOp{"new_order": {Count: n, PerSec: float64(n), AvgMS: 2, P95MS: 3, P99MS: 4}}}
	}
	return out
}

// A merged run's series keeps each interval's length and rates, so that
// the merged run is judged for steady state like a one-process run: two
// partitions whose throughput falls in the last third make it degraded.
func TestMergedSeriesIsJudgedForSteadyState(t *testing.T) {
	steady := repeat(int64(100), 15)
	falling := append(append(repeat(int64(100), 5), repeat(int64(70), 5)...), repeat(int64(40), 5)...)
	tests := []struct {
		name       string
		counts     []int64
		wantReason string // "" when the merged run is steady
		wantPerSec float64
	}{
		{"steady partitions", steady, "", 200},
		{"partitions falling in the last third", falling, "not in steady state: throughput fell from 200 to 80.0 operations per second", 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parts, _ := syntheticParts(t, 2)
			for i, p := range parts {
				p.Series = measuredSeries(0.001*float64(i), tc.counts...)
			}
			m, err := Merge(parts, MergeOptions{Criteria: Criteria{MinSuccessPct: 50}})
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Series) != len(tc.counts) {
				t.Fatalf("%d merged intervals, want %d", len(m.Series), len(tc.counts))
			}
			first := m.Series[0]
			if first.DurS != 1 || first.Ops["new_order"].PerSec != tc.wantPerSec {
				t.Errorf("first merged interval %+v: want dur_s 1 and per_sec %v", first, tc.wantPerSec)
			}
			reasons := strings.Join(m.VerdictReasons, "|")
			if tc.wantReason == "" {
				if m.Verdict != VerdictOK {
					t.Errorf("verdict %s (%s), want ok", m.Verdict, reasons)
				}
				return
			}
			if m.Verdict != VerdictDegraded || !strings.Contains(reasons, tc.wantReason) {
				t.Errorf("verdict %s (%s), want degraded with %q", m.Verdict, reasons, tc.wantReason)
			}
		})
	}
}

// A partition's series without dur_s (a file from before it existed)
// gives merged intervals without one, never a made-up length.
func TestMergedSeriesWithoutDurations(t *testing.T) {
	parts, _ := syntheticParts(t, 2) // series without dur_s
	m, err := Merge(parts, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, iv := range m.Series {
		if iv.DurS != 0 || iv.Ops["new_order"].PerSec != 0 {
			t.Errorf("interval %+v: want no dur_s and no per_sec", iv)
		}
	}
}

// The merged run keeps one copy of each check: a recomputed check (the
// TPC-C audit, also under the names of older files whose skipped-deliveries
// bound depended on the partition's counts) is never carried from the
// partitions, and a partition-only check is the worst partition's copy,
// marked with that partition.
func TestMergeChecks(t *testing.T) {
	const skipped = "audit delivery_skipped_districts <= max(1, 1 % of Deliveries)"
	pass := func(name, detail string) Check { return Check{Name: name, Passed: true, Detail: detail} }
	fail := func(name, detail string) Check { return Check{Name: name, Detail: detail} }
	notJudged := func(name, detail string) Check { return Check{Name: name, NotJudged: true, Detail: detail} }
	tests := []struct {
		name       string
		recomputed []Check
		parts      [][]Check
		want       []Check
	}{
		{"audit bound from the partitions' counts",
			[]Check{pass(skipped, "2 skipped over 600 Deliveries, at most 6 allowed")},
			[][]Check{{pass(skipped, "1 skipped over 300 Deliveries, at most 3 allowed")}, {fail(skipped, "1 skipped over 50 Deliveries, at most 1 allowed")}},
			[]Check{pass(skipped, "2 skipped over 600 Deliveries, at most 6 allowed")}},
		{"audit names of older files",
			[]Check{pass(skipped, "merged")},
			[][]Check{{pass("audit delivery_skipped_districts in [0, 3]", "p0")}, {fail("audit delivery_skipped_districts in [0, 2.5]", "p1")}},
			[]Check{pass(skipped, "merged")}},
		{"passed in every partition",
			nil,
			[][]Check{{pass("consistency 3.3.2.1", "ok")}, {pass("consistency 3.3.2.1", "ok too")}},
			[]Check{pass("consistency 3.3.2.1", "ok")}},
		{"failed after not judged",
			nil,
			[][]Check{{notJudged("consistency 3.3.2.1", "no data")}, {fail("consistency 3.3.2.1", "W_YTD 10 != 12")}},
			[]Check{fail("consistency 3.3.2.1", "partition 1: W_YTD 10 != 12")}},
		{"failed in the first partition",
			nil,
			[][]Check{{fail("consistency 3.3.2.1", "W_YTD 10 != 12")}, {notJudged("consistency 3.3.2.1", "no data")}},
			[]Check{fail("consistency 3.3.2.1", "partition 0: W_YTD 10 != 12")}},
		{"not judged after passed",
			nil,
			[][]Check{{pass("consistency 3.3.2.1", "ok")}, {notJudged("consistency 3.3.2.1", "no data")}},
			[]Check{notJudged("consistency 3.3.2.1", "partition 1: no data")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parts := make([]*Run, len(tc.parts))
			for i, cs := range tc.parts {
				parts[i] = &Run{Partition: &Partition{Index: i, Count: len(tc.parts)}, Checks: cs}
			}
			got := mergeChecks(tc.recomputed, parts)
			if len(got) != len(tc.want) {
				t.Fatalf("checks %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("check %d: %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// A partition whose drain (0.3 s after its last tick) rounds onto the
// window's last second is folded into that second before the partitions
// are added: the merged second's rate is the two partitions' rates, not
// inflated by a third interval over a shortened mean length.
func TestMergedSeriesFoldsAPartitionsSecond(t *testing.T) {
	parts, _ := syntheticParts(t, 2)
	for i, p := range parts {
		p.Series = measuredSeries(0.001*float64(i), repeat(int64(100), 6)...)
	}
	last := parts[0].Series[5]
	parts[0].Series = append(parts[0].Series, Interval{T: last.T + 0.3, DurS: 0.3, Phase: "measure", TPS: 100,
		Ops: map[string]IntervalOp{"new_order": {Count: 30, PerSec: 100, AvgMS: 2, P95MS: 3, P99MS: 4}}})
	m, err := Merge(parts, MergeOptions{Criteria: Criteria{MinSuccessPct: 50}})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Series) != 6 {
		t.Fatalf("%d merged intervals, want 6", len(m.Series))
	}
	end := m.Series[5]
	if end.TPS != 200 || end.Ops["new_order"].Count != 230 {
		t.Errorf("last merged second %+v: want TPS 200 (100 + 100) and the drain's 30 counted", end)
	}
	if ps := end.Ops["new_order"].PerSec; ps < 199 || ps > 201 {
		t.Errorf("last merged second per_sec %v, want about 200", ps)
	}
}
