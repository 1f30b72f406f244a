package results

import (
	"strings"
	"testing"
)

// tpmcSeries builds a measured one-second TPC-C series with the given tpmC
// per interval.
func tpmcSeries(tpmc ...float64) []Interval {
	out := make([]Interval, len(tpmc))
	for i, v := range tpmc {
		n := int64(v / 60)
		out[i] = Interval{T: float64(i + 1), DurS: 1, Phase: "measure", TpmC: v,
			Ops: map[string]IntervalOp{"new_order": {Count: n}, "payment": {Count: n}}}
	}
	return out
}

func repeat[T any](v T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestSteadyReason(t *testing.T) {
	ramp := append(append(tpmcSeries(repeat(1007.0, 5)...), tpmcSeries(repeat(1800.0, 5)...)...), tpmcSeries(repeat(2707.0, 5)...)...)
	warm := series(1, 1, 1, 1, 1, 1)
	for i := range warm {
		warm[i].Phase = "warmup"
	}
	noisy := series(100, 80, 120, 95, 105, 90, 110, 100, 85, 115, 100, 95, 105, 90, 110)
	tests := []struct {
		name   string
		series []Interval
		wait   bool
		want   string // substring; "" when steady or not judged
	}{
		{"proxy warming up", ramp, false, "not in steady state: throughput rose from 1,007 to 2,707 tpmC between the first and the last third of the window (lengthen the warm-up or the window)"},
		{"slowing down", series(1000, 1000, 1000, 900, 800, 700, 600, 600, 600), false, "not in steady state: throughput fell from 1,000 to 600 operations per second"},
		// With --wait the first keying times (18 s for a New-Order) end
		// in step inside a short window: a burst, then the spread rate.
		{"think times in step", tpmcSeries(0, 0, 0, 0, 0, 0, 0, 0, 12600, 21600, 14400, 4800, 3000, 1800, 1800, 1800, 3000, 600, 2400, 600, 2400, 3000, 600, 2400, 2400, 1200, 1800, 600, 3600, 1200), true,
			"not in steady state: throughput fell from 3,420 to 1,920 tpmC between the first and the last third of the window (with --wait every terminal starts keying at once, and the keying and think times take minutes to spread out: lengthen --warmup)"},
		{"noisy but steady", noisy, false, ""},
		// A warm-up ramp does not count: only the window is judged.
		{"warm-up excluded", append(warm, noisy...), false, ""},
		{"8 intervals are too few", series(100, 100, 100, 300, 300, 300, 300, 300), false, ""},
		// 2 against 5 completions a third: within the noise of so few.
		{"slow run within noise", series(1, 0, 1, 1, 1, 1, 2, 2, 1), false, ""},
		{"rise of 20 % is steady", series(100, 100, 100, 110, 110, 110, 120, 120, 120), false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &Run{Status: "ok", Series: tc.series, Config: map[string]any{"wait": tc.wait}, Summary: Summary{Transactions: 10000, SuccessRate: 100, TPS: 100, DurationS: float64(len(tc.series))}}
			Judge(r, Criteria{})
			got := strings.Join(r.VerdictReasons, "\n")
			if tc.want == "" {
				if r.Verdict != VerdictOK {
					t.Fatalf("verdict %s %q", r.Verdict, got)
				}
				return
			}
			if r.Verdict != VerdictDegraded || !strings.Contains(got, tc.want) {
				t.Fatalf("verdict %s %q\nwant %q", r.Verdict, got, tc.want)
			}
		})
	}
}

func TestThousands(t *testing.T) {
	for v, want := range map[float64]string{0: "0.0", 12.34: "12.3", 100: "100", 1007.4: "1,007", 1234567: "1,234,567"} {
		if got := thousands(v); got != want {
			t.Errorf("thousands(%v) = %q, want %q", v, got, want)
		}
	}
}

// The drain after the window (in-flight transactions finishing, saved as
// one long "measure" interval) is not the window's throughput: 2048
// PostgreSQL terminals saved 26 s at 23 tpmC after a steady window.
func TestSteadyWithoutDrain(t *testing.T) {
	ivs := tpmcSeries(repeat(6000.0, 12)...)
	for i := range ivs {
		ivs[i].T += 5 // after a 5 s warm-up
	}
	drain := Interval{T: 17 + 26, DurS: 26, Phase: "measure", TpmC: 23, Ops: map[string]IntervalOp{"new_order": {Count: 10}}}
	r := &Run{Status: "ok", Series: append(ivs, drain), Summary: Summary{Transactions: 10000, SuccessRate: 100, TPS: 100, DurationS: 12}}
	if st := Steady(r); st == nil || st.Change != 0 {
		t.Fatalf("steadiness %+v, want no change (the drain dropped)", st)
	}
	if got := withoutDrain(ivs, 12); len(got) != 12 {
		t.Fatalf("%d intervals kept of a 12 s window without a drain", len(got))
	}
}
