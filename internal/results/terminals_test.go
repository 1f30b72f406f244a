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
		closedLoop bool
		want       Terminals
	}{
		{"even", []int64{100, 100, 100, 100}, true,
			Terminals{Count: 4, Mean: 100, Min: 100, MinTerminal: 1, Max: 100, MaxTerminal: 1, StallJudged: true}},
		{"spread", []int64{90, 110, 100, 100}, true,
			Terminals{Count: 4, Mean: 100, Stddev: 7.1, StddevPct: 7.1, Min: 90, MinTerminal: 1, Max: 110, MaxTerminal: 2, StallJudged: true}},
		{"stalled, judged", []int64{50, 0, 50, 0}, true,
			Terminals{Count: 4, Mean: 25, Stddev: 25, StddevPct: 100, Min: 0, MinTerminal: 2, Max: 50, MaxTerminal: 1, Stalled: 2, StalledTerminals: []int{2, 4}, StallJudged: true}},
		{"stalled, think times", []int64{50, 0, 50, 0}, false,
			Terminals{Count: 4, Mean: 25, Stddev: 25, StddevPct: 100, Min: 0, MinTerminal: 2, Max: 50, MaxTerminal: 1, Stalled: 2, StalledTerminals: []int{2, 4}}},
		{"too few per terminal to judge", []int64{3, 0, 2, 1}, true,
			Terminals{Count: 4, Mean: 1.5, Stddev: 1.1, StddevPct: 74.5, Min: 0, MinTerminal: 2, Max: 3, MaxTerminal: 1, Stalled: 1, StalledTerminals: []int{2}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := TerminalsOf(tc.counts, tc.closedLoop)
			if !equalTerminals(*got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", *got, tc.want)
			}
		})
	}
	if TerminalsOf(nil, true) != nil {
		t.Error("no terminals: want nil")
	}
	many := make([]int64, 30)
	got := TerminalsOf(many, true)
	if got.Stalled != 30 || len(got.StalledTerminals) != maxStalledListed || got.StallJudged {
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
	parts := []*Run{{Terminals: TerminalsOf(p1, true)}, {Terminals: TerminalsOf(p2, true)}}
	got := mergeTerminals(parts)
	want := TerminalsOf(all, true)
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
			Terminals: TerminalsOf([]int64{50, 0, 50, 0}, judged)}
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
