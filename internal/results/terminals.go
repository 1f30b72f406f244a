package results

import (
	"fmt"
	"math"
	"strings"
)

// Terminals is how the measurement window's work spread over the terminals
// (sysbench's "threads fairness"): attempts per terminal (successes, spec
// rollbacks and failures, not retries), their mean and standard deviation,
// the least and the most loaded terminal (numbered from 1), and the
// stalled terminals.
//
// A closed-loop terminal without keying and think times (no --wait, no
// --rate) that completes nothing for a whole window, or for a stretch of
// it far longer than its transactions take, is stuck: in a lock wait, on a
// hung session, behind a proxy that stopped serving its connection. The
// run's throughput is then that of fewer terminals than it claims, and
// Judge degrades it (StallJudged). A terminal is stalled when it completed
// nothing in the window, or (judged runs only) when its longest stretch of
// the window without a completion is at least stallMinS seconds and at
// least stallMeanGaps times the window's mean time between a terminal's
// completions (window / Mean). With think times or a target rate, or when
// a terminal's expected count is small (fewer than stallMinMean
// transactions per terminal: 2048 terminals on 4 warehouses do about one
// each a second), a terminal may legitimately have nothing in the window,
// so terminals without a completion are reported but not judged.
type Terminals struct {
	Count       int     `json:"count"`
	Mean        float64 `json:"mean"`
	Stddev      float64 `json:"stddev"`
	StddevPct   float64 `json:"stddev_pct"` // of the mean
	Min         int64   `json:"min"`
	MinTerminal int     `json:"min_terminal"`
	Max         int64   `json:"max"`
	MaxTerminal int     `json:"max_terminal"`
	Stalled     int     `json:"stalled"`
	// StalledTerminals are the first maxStalledListed stalled terminals;
	// StalledForS their longest stretch of the window without a
	// completion, in seconds (the whole window for one that completed
	// nothing; absent in files from before the field).
	StalledTerminals []int     `json:"stalled_terminals,omitempty"`
	StalledForS      []float64 `json:"stalled_for_s,omitempty"`
	// StalledPartly counts the stalled terminals that completed something
	// in the window but stopped for a stretch of it.
	StalledPartly int  `json:"stalled_partly,omitempty"`
	StallJudged   bool `json:"stall_judged"`
	// LongestStallS is the longest stretch without a completion of all
	// the stalled terminals (StalledForS holds the listed ones only).
	LongestStallS float64 `json:"longest_stall_s,omitempty"`
	// Sum and SumSquares are the counts' sum and sum of squares, unrounded,
	// so that merged partitions pool exact figures (Mean and Stddev are
	// rounded to 0.1 for display).
	Sum        float64 `json:"sum,omitempty"`
	SumSquares float64 `json:"sum_squares,omitempty"`
}

// maxStalledListed bounds Terminals.StalledTerminals.
const maxStalledListed = 10

// stallMinMean is the mean count per terminal from which a terminal with
// none is judged stalled: a healthy terminal then went twenty mean
// transaction times without completing one.
const stallMinMean = 20

// Partial stalls: a terminal that completed something is stalled when its
// longest stretch without a completion is at least stallMinS seconds,
// stallMeanGaps mean times between its completions, and stallTailX times
// the run's slowest p99 latency (tailS). At 20 transactions per terminal in
// a 60 s window (stallMinMean) that is 30 s; at thousands, 2 s. A stretch
// without a completion is one transaction that long (closed loop, no think
// times), so the tail bound keeps queueing out: 128 TPC-C terminals on 4
// PostgreSQL warehouses (Payment p99 1.6 s, max 2.8 s, 2026-11-26) left
// terminals 2 s without a completion with nothing stuck; a row held for
// 30 s left its two terminals 17 s without one while p99 stayed at
// milliseconds.
const (
	stallMinS     = 2
	stallMeanGaps = 10
	stallTailX    = 3
)

// TerminalsOf summarizes the per-terminal counts (index i is terminal i+1)
// and longest stretches of the windowS-second window without a completion
// (idle, seconds; nil when not measured: only terminals without a
// completion can then be stalled); nil when there are no terminals.
// closedLoop (no think times, no target rate) and a mean of at least
// stallMinMean set StallJudged. tailS is the run's slowest operation's p99
// latency in seconds (0: unknown), the partial stalls' third bound.
func TerminalsOf(counts []int64, idle []float64, windowS, tailS float64, closedLoop bool) *Terminals {
	if len(counts) == 0 {
		return nil
	}
	t := &Terminals{Count: len(counts), Min: counts[0], MinTerminal: 1, Max: counts[0], MaxTerminal: 1}
	var sum float64
	for i, c := range counts {
		sum += float64(c)
		if c < t.Min {
			t.Min, t.MinTerminal = c, i+1
		}
		if c > t.Max {
			t.Max, t.MaxTerminal = c, i+1
		}
	}
	t.Mean = sum / float64(len(counts))
	t.StallJudged = closedLoop && t.Mean >= stallMinMean
	partly := math.Inf(1) // the shortest partial stall judged
	if t.StallJudged && windowS > 0 {
		partly = math.Max(math.Max(stallMinS, stallMeanGaps*windowS/t.Mean), stallTailX*tailS)
	}
	for i, c := range counts {
		var stretch float64
		switch {
		case c == 0:
			stretch = windowS
		case i < len(idle) && idle[i] >= partly:
			stretch = idle[i]
			t.StalledPartly++
		default:
			continue
		}
		t.Stalled++
		t.LongestStallS = math.Max(t.LongestStallS, math.Round(10*stretch)/10)
		if len(t.StalledTerminals) < maxStalledListed {
			t.StalledTerminals = append(t.StalledTerminals, i+1)
			t.StalledForS = append(t.StalledForS, math.Round(10*stretch)/10)
		}
	}
	var sq float64
	for _, c := range counts {
		d := float64(c) - t.Mean
		sq += d * d
		t.SumSquares += float64(c) * float64(c)
	}
	t.Sum = sum
	t.Stddev = math.Sqrt(sq / float64(len(counts)))
	t.round()
	return t
}

func (t *Terminals) round() {
	if t.Mean > 0 {
		t.StddevPct = math.Round(1000*t.Stddev/t.Mean) / 10
	}
	t.Mean = math.Round(10*t.Mean) / 10
	t.Stddev = math.Round(10*t.Stddev) / 10
}

// mergeTerminals combines the partitions' spreads as if one run had all
// their terminals, numbered partition after partition: the pooled mean and
// standard deviation, the extremes and the stalled terminals renumbered.
// Nil when a partition has none (files from before the field existed).
func mergeTerminals(parts []*Run) *Terminals {
	var out *Terminals
	var n, sum, sumSq float64
	exact := true // every partition saved its unrounded sums
	offset := 0
	for _, p := range parts {
		t := p.Terminals
		if t == nil || t.Count == 0 {
			return nil
		}
		k := float64(t.Count)
		n += k
		if t.Sum > 0 || t.SumSquares > 0 || t.Mean == 0 && t.Stddev == 0 {
			// Saved sums, or terminals that all completed nothing (exact
			// either way).
			sum += t.Sum
			sumSq += t.SumSquares
		} else {
			// A file from before the sums: pooled from its rounded mean
			// and standard deviation.
			exact = false
			sum += k * t.Mean
			sumSq += k * (t.Stddev*t.Stddev + t.Mean*t.Mean)
		}
		if out == nil {
			out = &Terminals{Min: t.Min, MinTerminal: t.MinTerminal, Max: t.Max, MaxTerminal: t.MaxTerminal, StallJudged: t.StallJudged}
		} else {
			if t.Min < out.Min {
				out.Min, out.MinTerminal = t.Min, t.MinTerminal+offset
			}
			if t.Max > out.Max {
				out.Max, out.MaxTerminal = t.Max, t.MaxTerminal+offset
			}
			out.StallJudged = out.StallJudged && t.StallJudged
		}
		out.Stalled += t.Stalled
		out.StalledPartly += t.StalledPartly
		out.LongestStallS = math.Max(out.LongestStallS, t.LongestStallS)
		for i, s := range t.StalledTerminals {
			if len(out.StalledTerminals) < maxStalledListed {
				out.StalledTerminals = append(out.StalledTerminals, s+offset)
				if i < len(t.StalledForS) {
					out.StalledForS = append(out.StalledForS, t.StalledForS[i])
				}
			}
		}
		offset += t.Count
	}
	out.Count = int(n)
	out.Mean = sum / n
	out.Stddev = math.Sqrt(math.Max(0, sumSq/n-out.Mean*out.Mean))
	if exact {
		out.Sum, out.SumSquares = sum, sumSq
	}
	out.round()
	return out
}

// StalledReason is the verdict's line for stalled terminals ("" when none
// or not judged): when some completed something, how long they completed
// nothing, per terminal; else that they completed nothing in the window.
func (t *Terminals) StalledReason(windowS float64) string {
	if t == nil || t.Stalled == 0 || !t.StallJudged {
		return ""
	}
	if t.StalledPartly > 0 {
		return fmt.Sprintf("stalled terminals: %d of %d completed nothing for %s of the %.0f s window (%s: a lock wait or a hung session)",
			t.Stalled, t.Count, t.longestStall(), windowS, t.stalledWithStretch())
	}
	return fmt.Sprintf("stalled terminals: %d of %d completed no transaction in the %.0f s window (terminal %s: a lock wait or a hung session); the throughput is that of %d terminals",
		t.Stalled, t.Count, windowS, t.StalledList(), t.Count-t.Stalled)
}

// longestStall is "17 s" for one stalled terminal, "up to 20 s" for several.
func (t *Terminals) longestStall() string {
	longest := t.LongestStallS
	for _, s := range t.StalledForS {
		longest = math.Max(longest, s)
	}
	if t.Stalled == 1 {
		return fmt.Sprintf("%.0f s", longest)
	}
	return fmt.Sprintf("up to %.0f s", longest)
}

// stalledWithStretch lists the stalled terminals: "terminal 5" for one,
// "terminals 5 (17 s), 6 (20 s)" for several ("..." when there are more
// than StalledTerminals holds).
func (t *Terminals) stalledWithStretch() string {
	if t.Stalled == 1 && len(t.StalledTerminals) == 1 {
		return fmt.Sprintf("terminal %d", t.StalledTerminals[0])
	}
	return "terminals " + t.StalledStretches()
}

// StalledStretches is the stalled terminals listed with their longest
// stretch without a completion ("5 (17 s), 6 (20 s)", "..." when there are
// more than StalledTerminals holds).
func (t *Terminals) StalledStretches() string {
	list := make([]string, len(t.StalledTerminals), len(t.StalledTerminals)+1)
	for i, s := range t.StalledTerminals {
		list[i] = fmt.Sprint(s)
		if i < len(t.StalledForS) {
			list[i] += fmt.Sprintf(" (%.0f s)", t.StalledForS[i])
		}
	}
	if t.Stalled > len(list) {
		list = append(list, "...")
	}
	return strings.Join(list, ", ")
}

// StalledList is the stalled terminals listed, "..." when there are more
// than StalledTerminals holds ("1, 5" or "1, 5, ...").
func (t *Terminals) StalledList() string {
	list := make([]string, len(t.StalledTerminals), len(t.StalledTerminals)+1)
	for i, s := range t.StalledTerminals {
		list[i] = fmt.Sprint(s)
	}
	if t.Stalled > len(list) {
		list = append(list, "...")
	}
	return strings.Join(list, ", ")
}
