package sysbench

import (
	"benchpress/internal/metrics"
	"benchpress/internal/results"
)

// Summarize fills Summary.QPS and Run.Extra with sysbench's final-report
// figures (reference §2.8): "queries" {read, write, other, total} and
// "sysbench" {events, events_per_sec, queries_per_sec, ignored_errors,
// reconnects, latency_ms {min, avg, max, p95, sum}}. The runner's retries of
// deadlocks and lock-wait timeouts count as ignored errors, as in sysbench.
func (w *Workload) Summarize(r *results.Run, cum *metrics.Snapshot) {
	if cum == nil || len(cum.Extra) < numExtras {
		return
	}
	rd, wr, ot := cum.Extra[exReads], cum.Extra[exWrites], cum.Extra[exOthers]
	total := rd + wr + ot
	secs := r.Summary.DurationS
	per := func(n int64) float64 {
		if secs <= 0 {
			return 0
		}
		return float64(n) / secs
	}
	r.Summary.QPS = per(total)
	if r.Extra == nil {
		r.Extra = map[string]any{}
	}
	r.Extra["queries"] = map[string]int64{"read": rd, "write": wr, "other": ot, "total": total}
	var events, retries int64
	if len(cum.Counts) > 0 {
		events = cum.Counts[0].OK + cum.Counts[0].Rollback
		retries = cum.Counts[0].Retries
	}
	lat := map[string]float64{}
	if len(cum.OKHist) > 0 && cum.OKHist[0] != nil && cum.OKHist[0].TotalCount() > 0 {
		h := cum.OKHist[0]
		lat["min"] = float64(h.Min()) / 1000
		lat["avg"] = h.Mean() / 1000
		lat["max"] = float64(h.Max()) / 1000
		lat["p95"] = float64(h.ValueAtQuantile(95)) / 1000
		lat["sum"] = h.Mean() * float64(h.TotalCount()) / 1000
	}
	r.Extra["sysbench"] = map[string]any{
		"test":              w.test,
		"rand_type":         w.opts.RandType,
		"events":            events,
		"events_per_sec":    per(events),
		"queries_per_sec":   per(total),
		"ignored_errors":    retries + cum.Extra[exIgnored],
		"reconnects":        r.Reconnects,
		"latency_ms":        lat,
		"queries_per_event": w.perEvent,
	}
}

// Statements returns the number of queries sent in the window (§2.8 total).
func (w *Workload) Statements(cum *metrics.Snapshot) int64 {
	if cum == nil || len(cum.Extra) < numExtras {
		return 0
	}
	return cum.Extra[exReads] + cum.Extra[exWrites] + cum.Extra[exOthers]
}
