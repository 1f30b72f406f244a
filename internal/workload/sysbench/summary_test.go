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
