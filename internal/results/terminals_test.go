package results

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestTerminalsOf(t *testing.T) {
	tests := []struct {
		name       string
		counts     []int64
		idle       []float64
		windowS    float64
		tailS      float64
		closedLoop bool
		want       Terminals
	}{
		{"even", []int64{100, 100, 100, 100}, nil, 20, 0, true,
			Terminals{Count: 4, Mean: 100, Min: 100, MinTerminal: 1, Max: 100, MaxTerminal: 1, StallJudged: true}},
		{"spread", []int64{90, 110, 100, 100}, nil, 20, 0, true,
			Terminals{Count: 4, Mean: 100, Stddev: 7.1, StddevPct: 7.1, Min: 90, MinTerminal: 1, Max: 110, MaxTerminal: 2, StallJudged: true}},
		{"stalled, judged", []int64{50, 0, 50, 0}, nil, 20, 0, true,
			Terminals{Count: 4, Mean: 25, Stddev: 25, StddevPct: 100, Min: 0, MinTerminal: 2, Max: 50, MaxTerminal: 1, Stalled: 2, StalledTerminals: []int{2, 4}, StalledForS: []float64{20, 20}, StallJudged: true}},
		{"stalled, think times", []int64{50, 0, 50, 0}, []float64{0, 20, 0, 20}, 20, 0, false,
			Terminals{Count: 4, Mean: 25, Stddev: 25, StddevPct: 100, Min: 0, MinTerminal: 2, Max: 50, MaxTerminal: 1, Stalled: 2, StalledTerminals: []int{2, 4}, StalledForS: []float64{20, 20}}},
		{"too few per terminal to judge", []int64{3, 0, 2, 1}, nil, 20, 0, true,
			Terminals{Count: 4, Mean: 1.5, Stddev: 1.1, StddevPct: 74.5, Min: 0, MinTerminal: 2, Max: 3, MaxTerminal: 1, Stalled: 1, StalledTerminals: []int{2}, StalledForS: []float64{20}}},
		// Terminal 3 waited 17 s of a 20 s window on a lock (mean gap
		// 20/2425 s: the bound is 2 s); terminal 2's 1 s is no stall.
		{"partly stalled", []int64{3000, 3000, 300, 3400}, []float64{0, 1, 17, 0}, 20, 0, true,
			Terminals{Count: 4, Mean: 2425, Stddev: 1237.7, StddevPct: 51, Min: 300, MinTerminal: 3, Max: 3400, MaxTerminal: 4, Stalled: 1, StalledTerminals: []int{3}, StalledForS: []float64{17}, StalledPartly: 1, StallJudged: true}},
		// 2 s is the floor however fast the terminals run.
		{"short stretch is no stall", []int64{3000, 3000, 2900, 3000}, []float64{0, 0, 1.9, 0}, 20, 0, true,
			Terminals{Count: 4, Mean: 2975, Stddev: 43.3, StddevPct: 1.5, Min: 2900, MinTerminal: 3, Max: 3000, MaxTerminal: 1, StallJudged: true}},
		// At 25 per terminal in 20 s a completion every 0.8 s: a stall
		// needs 8 s without one.
		{"slow terminals: 10 mean gaps", []int64{25, 25, 20, 30}, []float64{0, 7, 8, 0}, 20, 0, true,
			Terminals{Count: 4, Mean: 25, Stddev: 3.5, StddevPct: 14.1, Min: 20, MinTerminal: 3, Max: 30, MaxTerminal: 4, Stalled: 1, StalledTerminals: []int{3}, StalledForS: []float64{8}, StalledPartly: 1, StallJudged: true}},
		// 128 TPC-C terminals on 4 warehouses: Payment p99 1.6 s, so a
		// 2 s stretch (one Payment in a lock queue) is queueing: the bound
		// is 3 x 1.6 s.
		{"queueing is no stall", []int64{123, 120, 81, 171}, []float64{1, 0, 2, 1}, 20, 1.6, true,
			Terminals{Count: 4, Mean: 123.8, Stddev: 31.9, StddevPct: 25.8, Min: 81, MinTerminal: 3, Max: 171, MaxTerminal: 4, StallJudged: true}},
		// A row held for 17 s while the run's p99 stays at 30 ms.
		{"held row beyond the tail", []int64{3000, 3000, 300, 3400}, []float64{0, 1, 17, 0}, 20, 0.03, true,
			Terminals{Count: 4, Mean: 2425, Stddev: 1237.7, StddevPct: 51, Min: 300, MinTerminal: 3, Max: 3400, MaxTerminal: 4, Stalled: 1, StalledTerminals: []int{3}, StalledForS: []float64{17}, StalledPartly: 1, StallJudged: true}},
		// Think times or a rate: long idle stretches are the workload's.
		{"idle not judged with think times", []int64{25, 25, 20, 30}, []float64{0, 7, 8, 0}, 20, 0, false,
			Terminals{Count: 4, Mean: 25, Stddev: 3.5, StddevPct: 14.1, Min: 20, MinTerminal: 3, Max: 30, MaxTerminal: 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := TerminalsOf(tc.counts, tc.idle, tc.windowS, tc.tailS, tc.closedLoop)
			// The unrounded sums and the longest stall, checked here.
			var sum, sq, longest float64
			for _, c := range tc.counts {
				sum += float64(c)
				sq += float64(c) * float64(c)
			}
			for _, s := range tc.want.StalledForS {
				longest = max(longest, s)
			}
			if got.Sum != sum || got.SumSquares != sq || got.LongestStallS != longest {
				t.Errorf("sum %v squares %v longest %v, want %v %v %v", got.Sum, got.SumSquares, got.LongestStallS, sum, sq, longest)
			}
			got.Sum, got.SumSquares, got.LongestStallS = 0, 0, 0
			if !equalTerminals(*got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", *got, tc.want)
			}
		})
	}
	if TerminalsOf(nil, nil, 0, 0, true) != nil {
		t.Error("no terminals: want nil")
	}
	many := make([]int64, 30)
	got := TerminalsOf(many, nil, 10, 0, true)
	if got.Stalled != 30 || len(got.StalledTerminals) != maxStalledListed || len(got.StalledForS) != maxStalledListed || got.StallJudged {
		t.Errorf("30 idle terminals: %+v", got)
	}
}

func equalTerminals(a, b Terminals) bool { return reflect.DeepEqual(a, b) }

// TestMergeTerminals: the partitions' spreads pool to the spread of all
// their terminals together, numbered partition after partition.
func TestMergeTerminals(t *testing.T) {
	p1 := []int64{100, 120, 0}
	p2 := []int64{80, 140}
	all := append(append([]int64(nil), p1...), p2...)
	parts := []*Run{{Terminals: TerminalsOf(p1, nil, 0, 0, true)}, {Terminals: TerminalsOf(p2, nil, 0, 0, true)}}
	got := mergeTerminals(parts)
	want := TerminalsOf(all, nil, 0, 0, true)
	if got.Count != want.Count || math.Abs(got.Mean-want.Mean) > 0.1 || math.Abs(got.Stddev-want.Stddev) > 0.2 ||
		got.Min != 0 || got.MinTerminal != 3 || got.Max != 140 || got.MaxTerminal != 5 ||
		got.Stalled != 1 || len(got.StalledTerminals) != 1 || got.StalledTerminals[0] != 3 || !got.StallJudged {
		t.Errorf("merged %+v\nwant   %+v", *got, *want)
	}
	parts[1].Terminals = nil
	if mergeTerminals(parts) != nil {
		t.Error("a partition without the figures: want nil")
	}
}

// TestJudgeStalled: judged stalled terminals degrade the run and say
// which; unjudged ones do not.
func TestJudgeStalled(t *testing.T) {
	for _, judged := range []bool{true, false} {
		r := &Run{Summary: Summary{Transactions: 100, SuccessRate: 100, DurationS: 60},
			Terminals: TerminalsOf([]int64{50, 0, 50, 0}, nil, 0, 0, judged)}
		Judge(r, Criteria{})
		if !judged {
			if r.Verdict != VerdictOK {
				t.Errorf("not judged: verdict %s %v", r.Verdict, r.VerdictReasons)
			}
			continue
		}
		if r.Verdict != VerdictDegraded || len(r.VerdictReasons) != 1 ||
			!strings.HasPrefix(r.VerdictReasons[0], "stalled terminals: 2 of 4 completed no transaction in the 60 s window (terminal 2, 4:") ||
			!strings.HasSuffix(r.VerdictReasons[0], "the throughput is that of 2 terminals") {
			t.Errorf("judged: verdict %s %q", r.Verdict, r.VerdictReasons)
		}
	}
}

// TestStalledReasonPartly: terminals that stopped for a long stretch of
// the window are named with their stretch; the merged result keeps each
// partition's stalled terminals, renumbered, with theirs.
func TestStalledReasonPartly(t *testing.T) {
	tests := []struct {
		name   string
		counts []int64
		idle   []float64
		want   string // "" when not degraded
	}{
		{"one", []int64{3358, 3400, 300, 3300}, []float64{0, 0, 17, 0},
			"stalled terminals: 1 of 4 completed nothing for 17 s of the 20 s window (terminal 3: a lock wait or a hung session)"},
		{"two, one idle all window", []int64{3358, 0, 300, 3300}, []float64{0, 20, 17, 0},
			"stalled terminals: 2 of 4 completed nothing for up to 20 s of the 20 s window (terminals 2 (20 s), 3 (17 s): a lock wait or a hung session)"},
		{"healthy", []int64{3358, 3400, 3300, 3300}, []float64{0, 1, 1, 0}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &Run{Summary: Summary{Transactions: 10000, SuccessRate: 100, DurationS: 20},
				Terminals: TerminalsOf(tc.counts, tc.idle, 20, 0, true)}
			Judge(r, Criteria{})
			if tc.want == "" {
				if r.Verdict != VerdictOK {
					t.Fatalf("verdict %s %q", r.Verdict, r.VerdictReasons)
				}
				return
			}
			if r.Verdict != VerdictDegraded || len(r.VerdictReasons) != 1 || r.VerdictReasons[0] != tc.want {
				t.Fatalf("verdict %s %q\nwant %q", r.Verdict, r.VerdictReasons, tc.want)
			}
		})
	}
	parts := []*Run{
		{Terminals: TerminalsOf([]int64{3000, 3000}, []float64{0, 0}, 20, 0, true)},
		{Terminals: TerminalsOf([]int64{3000, 200, 0}, []float64{0, 18, 20}, 20, 0, true)},
	}
	m := mergeTerminals(parts)
	if m.Stalled != 2 || m.StalledPartly != 1 || !reflect.DeepEqual(m.StalledTerminals, []int{4, 5}) ||
		!reflect.DeepEqual(m.StalledForS, []float64{18, 20}) {
		t.Errorf("merged %+v", *m)
	}
}

// Merged partitions pool the exact sums (the rounded mean and standard
// deviation of small counts would not: [0,1,0] twice read 166.7 % for
// 141.4 %), and the longest stall counts every stalled terminal, not only
// the ten listed.
func TestMergeTerminalsExact(t *testing.T) {
	p := []int64{0, 1, 0}
	got := mergeTerminals([]*Run{{Terminals: TerminalsOf(p, nil, 0, 0, true)}, {Terminals: TerminalsOf(p, nil, 0, 0, true)}})
	want := TerminalsOf(append(append([]int64(nil), p...), p...), nil, 0, 0, true)
	if got.StddevPct != want.StddevPct || got.Stddev != want.Stddev || got.Mean != want.Mean {
		t.Errorf("merged mean %v stddev %v (%v %%), want %v %v (%v %%)", got.Mean, got.Stddev, got.StddevPct, want.Mean, want.Stddev, want.StddevPct)
	}

	counts := make([]int64, 12)
	idle := make([]float64, 12)
	for i := range counts {
		counts[i], idle[i] = 300, 5
	}
	idle[11] = 40
	one := TerminalsOf(counts, idle, 60, 0, true)
	if reason := one.StalledReason(60); !strings.Contains(reason, "up to 40 s") {
		t.Errorf("reason %q: want the longest stall, 40 s (terminal 12, not listed)", reason)
	}
	merged := mergeTerminals([]*Run{{Terminals: TerminalsOf(counts[:1], idle[:1], 60, 0, true)}, {Terminals: one}})
	if merged.LongestStallS != 40 {
		t.Errorf("merged longest stall %v, want 40", merged.LongestStallS)
	}
}
