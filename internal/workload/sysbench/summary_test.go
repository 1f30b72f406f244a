package sysbench

import (
	"testing"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
)

func TestSummarize(t *testing.T) {
	w, _ := New(ReadWrite, DefaultOptions())
	cum := metrics.Merge(1, numExtras)
	cum.Counts[0].OK = 100
	cum.Counts[0].Retries = 3
	cum.OKHist[0] = metrics.NewHistogram()
	for i := 1; i <= 100; i++ {
		_ = cum.OKHist[0].RecordValue(int64(i) * int64(time.Millisecond/time.Microsecond))
	}
	cum.Extra[exReads], cum.Extra[exWrites], cum.Extra[exOthers], cum.Extra[exIgnored] = 1400, 400, 200, 2
	r := &results.Run{Summary: results.Summary{DurationS: 10}}
	w.Summarize(r, cum)
	if r.Summary.QPS != 200 {
		t.Errorf("QPS = %v, want 200", r.Summary.QPS)
	}
	q := r.Extra["queries"].(map[string]int64)
	if q["read"] != 1400 || q["write"] != 400 || q["other"] != 200 || q["total"] != 2000 {
		t.Errorf("queries = %v", q)
	}
	sb := r.Extra["sysbench"].(*Summary)
	if sb.Events != 100 || sb.IgnoredErrors != 5 || sb.EventsPerSec != 10 {
		t.Errorf("sysbench = %+v", sb)
	}
	if p95 := sb.LatencyMS["p95"]; p95 < 94 || p95 > 96 {
		t.Errorf("p95 = %v", p95)
	}
	if n := w.Statements(cum); n != 2000 {
		t.Errorf("Statements = %d", n)
	}
}

// Threads fairness is sysbench's: events (failed ones excluded) averaged
// over every thread, those that completed none included.
func TestThreadsFairness(t *testing.T) {
	// 256 threads through a proxy, 121 events: most threads did none.
	few := make([]int64, 256)
	for i := range 100 {
		few[i] = 1
	}
	for i := 100; i < 110; i++ {
		few[i] = 2
	}
	few[200] = 1
	for _, tc := range []struct {
		name    string
		events  []int64
		avg, sd float64
		line    string
	}{
		{"even", []int64{10, 10, 10, 10}, 10, 0, "10.0000/0.00"},
		{"spread", []int64{8, 12, 10, 10}, 10, 1.41, "10.0000/1.41"},
		{"idle threads count", []int64{0, 0, 3, 0}, 0.75, 1.3, "0.7500/1.30"},
		{"121 events on 256 threads", few, 0.4727, 0.57, "0.4727/0.57"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, _ := New(ReadWrite, DefaultOptions())
			r := &results.Run{Summary: results.Summary{DurationS: 10}}
			w.Summarize(r, metrics.Merge(1, numExtras))
			w.SummarizeTerminals(r, tc.events)
			f := r.Extra["sysbench"].(*Summary).Fairness
			if f == nil || f.Threads != len(tc.events) || f.EventsAvg != tc.avg || f.EventsStddev != tc.sd {
				t.Fatalf("fairness %+v, want %d threads, avg %v, stddev %v", f, len(tc.events), tc.avg, tc.sd)
			}
			if got := fairnessLine(r); got != tc.line {
				t.Errorf("line %q, want %q", got, tc.line)
			}
		})
	}
}

// Without per-thread events (a merged result, an older file) the line
// still averages events over all threads, never the attempts (failed
// events included) that results.Terminals counts.
func TestFairnessLineFallback(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  results.Run
		want string
	}{
		{"failed events: stddev unknown", results.Run{Summary: results.Summary{Transactions: 121, Errors: 160},
			Terminals: &results.Terminals{Count: 256, Mean: 1.1, Stddev: 0.9}}, "0.4727/-"},
		{"no failures: attempts are events", results.Run{Summary: results.Summary{Transactions: 1000},
			Terminals: &results.Terminals{Count: 8, Mean: 125, Stddev: 3.2}}, "125.0000/3.2"},
		{"from a file", results.Run{Terminals: &results.Terminals{Count: 2},
			Extra: map[string]any{"sysbench": map[string]any{"threads_fairness": map[string]any{"events_avg": 0.5, "events_stddev": 0.5}}}}, "0.5000/0.50"},
		{"no terminals", results.Run{}, ""},
	} {
		if got := fairnessLine(&tc.run); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
