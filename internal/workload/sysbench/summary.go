package sysbench

import (
	"math"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
)

// Summary is Run.Extra["sysbench"]: sysbench's final-report figures. The
// fields are in the order of their JSON names (the document is the same as
// when it was a map).
type Summary struct {
	Events          int64              `json:"events"`
	EventsPerSec    float64            `json:"events_per_sec"`
	IgnoredErrors   int64              `json:"ignored_errors"`
	LatencyMS       map[string]float64 `json:"latency_ms"` // min, avg, max, p95, sum
	QueriesPerEvent int                `json:"queries_per_event"`
	QueriesPerSec   float64            `json:"queries_per_sec"`
	RandType        string             `json:"rand_type"`
	Reconnects      int64              `json:"reconnects"`
	Test            string             `json:"test"`
	// Fairness is sysbench's "threads fairness" (SummarizeTerminals);
	// absent from a merged result and from files written before it.
	Fairness *Fairness `json:"threads_fairness,omitempty"`
}

// Fairness is how the window's events spread over the threads, as
// sysbench defines it: the mean over all threads (those that completed
// nothing included) of each thread's events, and their standard deviation
// (population). Failed events are not events.
type Fairness struct {
	Threads      int     `json:"threads"`
	EventsAvg    float64 `json:"events_avg"`
	EventsStddev float64 `json:"events_stddev"`
}

// SummarizeTerminals implements workload.TerminalSummarizer: the threads
// fairness from each thread's events in the window. It needs Summarize's
// figures (Run.Extra["sysbench"]) and does nothing without them.
func (w *Workload) SummarizeTerminals(r *results.Run, events []int64) {
	sb, ok := r.Extra["sysbench"].(*Summary)
	if !ok || len(events) == 0 {
		return
	}
	sb.Fairness = fairnessOf(events)
}

// fairnessOf computes Fairness over every thread in events.
func fairnessOf(events []int64) *Fairness {
	n := float64(len(events))
	var sum float64
	for _, e := range events {
		sum += float64(e)
	}
	avg := sum / n
	var sq float64
	for _, e := range events {
		d := float64(e) - avg
		sq += d * d
	}
	return &Fairness{Threads: len(events), EventsAvg: round(avg, 4), EventsStddev: round(math.Sqrt(sq/n), 2)}
}

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

// Summarize fills Summary.QPS and Run.Extra with sysbench's final-report
// figures (reference §2.8): "queries" {read, write, other, total} and
// "sysbench" (*Summary). The runner's retries of
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
	r.Extra["sysbench"] = &Summary{
		Test: w.test, RandType: w.opts.RandType, Events: events, EventsPerSec: per(events),
		QueriesPerSec: per(total), IgnoredErrors: retries + cum.Extra[exIgnored], Reconnects: r.Reconnects,
		LatencyMS: lat, QueriesPerEvent: w.perEvent,
	}
}

// Statements returns the number of queries sent in the window (§2.8 total).
func (w *Workload) Statements(cum *metrics.Snapshot) int64 {
	if cum == nil || len(cum.Extra) < numExtras {
		return 0
	}
	return cum.Extra[exReads] + cum.Extra[exWrites] + cum.Extra[exOthers]
}
