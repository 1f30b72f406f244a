package results

import (
	"strings"
	"testing"
)

// A merged run is judged, and a partition's own bad verdict cannot hide in
// the sum; error samples of the partitions are kept, the same message once.
func TestMergeJudgesAndKeepsErrorSamples(t *testing.T) {
	sample := ErrorSample{Class: "deadlock", Code: "1213", Op: "new_order", Message: "Deadlock found", Count: 3}
	tests := []struct {
		name        string
		minSuccess  float64
		partsBound  []float64 // the partitions' saved --min-success (nil: none saved)
		badReasons  []string  // partition 1's own reasons (default: an outage)
		badVerdict  string    // partition 1's own verdict
		wantVerdict string
		wantReason  string
	}{
		{name: "healthy partitions", minSuccess: 50, badVerdict: VerdictOK, wantVerdict: VerdictOK},
		{name: "one degraded partition", minSuccess: 50, badVerdict: VerdictDegraded, wantVerdict: VerdictDegraded,
			wantReason: "partition 1: outage"},
		{name: "merged success rate below the bar", minSuccess: 99.9, badVerdict: VerdictOK, wantVerdict: VerdictFailed,
			wantReason: "below --min-success"},
		// No bound given to merge: the partitions' own (about 98 %
		// success here), 99 for files from before it was saved.
		{name: "the partitions' own bound", minSuccess: MinSuccessUnset, partsBound: []float64{95, 95}, badVerdict: VerdictOK, wantVerdict: VerdictOK},
		{name: "the strictest partition's bound", minSuccess: MinSuccessUnset, partsBound: []float64{95, 99.5}, badVerdict: VerdictOK, wantVerdict: VerdictFailed,
			wantReason: "below --min-success 99.5 %"},
		{name: "partitions without a saved bound", minSuccess: MinSuccessUnset, badVerdict: VerdictOK, wantVerdict: VerdictFailed,
			wantReason: "below --min-success 99 %"},
		{name: "merge's bound over the partitions'", minSuccess: 0, partsBound: []float64{99.9, 99.9}, badVerdict: VerdictOK, wantVerdict: VerdictOK},
		// A partition failed by its own bound passes under merge's lower
		// one; its other reasons stay.
		{name: "partition failed by its own bound, merge's lower", minSuccess: 90, partsBound: []float64{99, 99}, badVerdict: VerdictFailed,
			badReasons: []string{"success rate 97.00 % is below --min-success 99 % (30 errors: deadlock 30)"}, wantVerdict: VerdictOK},
		{name: "partition failed by its own bound, degraded too", minSuccess: 90, partsBound: []float64{99, 99}, badVerdict: VerdictFailed,
			badReasons:  []string{"success rate 97.00 % is below --min-success 99 % (30 errors: deadlock 30)", "outage: no operation completed for 5 s (t = 20..25 s)"},
			wantVerdict: VerdictDegraded, wantReason: "partition 1: outage"},
		{name: "partition stopped", minSuccess: 90, partsBound: []float64{99, 99}, badVerdict: VerdictFailed,
			badReasons: []string{"stopped: permission denied"}, wantVerdict: VerdictFailed, wantReason: "partition 1: stopped: permission denied"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parts, _ := syntheticParts(t, 2)
			for i, p := range parts {
				p.ErrorSamples = []ErrorSample{sample}
				p.Verdict = VerdictOK
				if tc.partsBound != nil {
					p.MinSuccessPct = &tc.partsBound[i]
				}
			}
			if tc.badVerdict != VerdictOK {
				parts[1].Verdict = tc.badVerdict
				parts[1].VerdictReasons = []string{"outage: no operation completed for 5 s (t = 20..25 s)"}
				if tc.badReasons != nil {
					parts[1].VerdictReasons = tc.badReasons
				}
			}
			m, err := Merge(parts, MergeOptions{Criteria: Criteria{MinSuccessPct: tc.minSuccess}})
			if err != nil {
				t.Fatal(err)
			}
			if m.Verdict != tc.wantVerdict {
				t.Fatalf("verdict %q (%v), want %q", m.Verdict, m.VerdictReasons, tc.wantVerdict)
			}
			if tc.wantReason != "" && !strings.Contains(strings.Join(m.VerdictReasons, "|"), tc.wantReason) {
				t.Errorf("reasons %v lack %q", m.VerdictReasons, tc.wantReason)
			}
			if len(m.ErrorSamples) != 1 || m.ErrorSamples[0].Count != 6 {
				t.Errorf("error samples %+v, want one with count 6", m.ErrorSamples)
			}
		})
	}
}

// A merged run keeps the prepared-statement plan of the partition that
// prepared fewest, over all the partitions' sessions.
func TestMergeKeepsFewestPreparedStatements(t *testing.T) {
	plan := func(terms, prepared int) *PreparedStmts {
		return &PreparedStmts{ServerLimit: 16382, Terminals: terms, RunTerminals: 2048, PerSession: prepared, Prepared: prepared, Kinds: 96}
	}
	tests := []struct {
		name         string
		a, b         *PreparedStmts
		wantPrepared int // -1: no plan
		wantTerms    int
	}{
		{"none", nil, nil, -1, 0},
		{"same plans", plan(1024, 7), plan(1024, 7), 7, 2048},
		{"the second prepared fewer", plan(1024, 15), plan(1024, 7), 7, 2048},
		{"the first prepared fewer", plan(1000, 7), plan(1048, 15), 7, 2048},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parts, _ := syntheticParts(t, 2)
			parts[0].PreparedStatements, parts[1].PreparedStatements = tc.a, tc.b
			m, err := Merge(parts, MergeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			p := m.PreparedStatements
			if tc.wantPrepared < 0 {
				if p != nil {
					t.Fatalf("plan %+v, want none", p)
				}
				return
			}
			if p == nil || p.Prepared != tc.wantPrepared || p.Terminals != tc.wantTerms || p.RunTerminals != 0 {
				t.Fatalf("plan %+v, want %d prepared over %d sessions", p, tc.wantPrepared, tc.wantTerms)
			}
			if parts[0].PreparedStatements != nil && parts[0].PreparedStatements.Terminals != tc.a.Terminals {
				t.Errorf("the merge changed partition 0's own plan: %+v", parts[0].PreparedStatements)
			}
		})
	}
}
