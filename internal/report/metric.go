package report

import (
	"math"
	"strings"

	"benchpress/internal/results"
)

// Kind is a workload family; it decides table shapes and the headline metric.
type Kind string

const (
	KindTPCC     Kind = "tpcc"
	KindSysbench Kind = "sysbench"
	KindYCSB     Kind = "ycsb"
	KindOther    Kind = "other"
)

// KindOf maps a workload name ("sysbench/oltp_read_write") to its family.
func KindOf(workload string) Kind {
	switch {
	case workload == "tpcc":
		return KindTPCC
	case strings.HasPrefix(workload, "sysbench"):
		return KindSysbench
	case strings.HasPrefix(workload, "ycsb"):
		return KindYCSB
	}
	return KindOther
}

// MetricName is the headline throughput metric of a kind.
func MetricName(k Kind) string {
	switch k {
	case KindTPCC:
		return "tpmC"
	case KindYCSB:
		return "ops/s"
	}
	return "TPS"
}

// Throughput is the headline figure of a run: tpmC for TPC-C, else TPS
// (ops/s for YCSB).
func Throughput(r *results.Run) float64 {
	if KindOf(r.Workload) == KindTPCC {
		return r.Summary.TpmC
	}
	return r.Summary.TPS
}

// NoWait reports whether r is a TPC-C run measured without keying and
// think times: its tpmC is a throughput figure, not a tpmC the
// specification would accept (clause 5.2.5; the console marks it too).
func NoWait(r *results.Run) bool {
	w, ok := r.Config["wait"].(bool)
	return KindOf(r.Workload) == KindTPCC && ok && !w
}

// NoWaitMark is the mark a tpmC of such a run carries wherever it is shown.
const NoWaitMark = "(no keying/think times)"

// ok reports whether a step has usable figures.
func (s *Step) ok() bool {
	return s.Run.Status == "ok" || s.Run.Status == "interrupted" && s.Run.Summary.DurationS > 0
}

// Kind is the case's workload family.
func (c *Case) Kind() Kind { return KindOf(c.Workload) }

// notOK names what keeps a step with figures from being a good result
// ("failed", "degraded", "interrupted"); "" for a step judged ok. Tables
// that put such a step's figures beside others' (comparisons, charts) mark
// them with it: the figures were measured, but a failed check, errors or
// an interruption stand behind them.
func (s *Step) notOK() string {
	switch {
	case s.Run.Status == "interrupted":
		return "interrupted"
	case s.Run.Status == "failed" || s.Run.Verdict == results.VerdictFailed:
		return "failed"
	case s.Run.Verdict == results.VerdictDegraded:
		return "degraded"
	}
	return ""
}

// marked is v formatted, followed by the step's notOK in parentheses.
func marked(v string, s *Step) string {
	if m := s.notOK(); m != "" {
		return v + " (" + m + ")"
	}
	return v
}

// judgedOK reports whether a step may be named peak: it ran to its end
// with a verdict of ok (or none, in files from before verdicts). A failed,
// degraded or interrupted step is never the peak.
func (s *Step) judgedOK() bool {
	return s.Run.Status == "ok" && (s.Run.Verdict == "" || s.Run.Verdict == results.VerdictOK)
}

// Peak returns the step with the highest throughput among those judged ok
// (nil if none).
func (c *Case) Peak() *Step {
	var best *Step
	for _, s := range c.Steps {
		if s.judgedOK() && (best == nil || Throughput(s.Run) > Throughput(best.Run)) {
			best = s
		}
	}
	return best
}

// SaturationGain is the throughput gain below which more concurrency is
// considered not to help.
const SaturationGain = 0.05

// Saturation returns the first step judged ok after which the next step
// judged ok adds less than 5 % throughput (nil when every such step still
// gains, or with fewer than two). Failed, degraded and interrupted steps
// are passed over as they are for Peak: their throughput stands behind
// errors or a failed check, and the flattening the saturation point
// claims must come from good measurements on both sides.
func (c *Case) Saturation() *Step {
	var prev *Step
	for _, s := range c.Steps {
		if !s.judgedOK() {
			continue
		}
		if prev != nil && Throughput(s.Run) < Throughput(prev.Run)*(1+SaturationGain) {
			return prev
		}
		prev = s
	}
	return nil
}

// StepAt returns the step at concurrency n (nil if absent).
func (c *Case) StepAt(n int) *Step {
	for _, s := range c.Steps {
		if s.Concurrency == n {
			return s
		}
	}
	return nil
}

// Overhead is (base - other) / base in percent: how much slower other is.
// With a zero base it is 0 when other is 0 too, else NaN: no percentage
// of nothing exists (0 errors against 1234), and pct and signedPct print
// NaN as "n/a", never as a 0.00 % difference.
func Overhead(base, other float64) float64 {
	if base == 0 {
		if other == 0 {
			return 0
		}
		return math.NaN()
	}
	return (base - other) / base * 100
}

// Diff is (other - base) / base in percent (NaN from a zero base to a
// non-zero other, as Overhead).
func Diff(base, other float64) float64 { return -Overhead(base, other) }
