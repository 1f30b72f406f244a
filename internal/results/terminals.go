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
// terminals that completed nothing in the window.
//
// A closed-loop terminal without keying and think times (no --wait, no
// --rate) that completes nothing for a whole window is stuck: in a lock
// wait, on a hung session, behind a proxy that stopped serving its
// connection. The run's throughput is then that of fewer terminals than
// it claims, and Judge degrades it (StallJudged). With think times or a
// target rate, or when a terminal's expected count is small (fewer than
// stallMinMean transactions per terminal: 2048 terminals on 4 warehouses
// do about one each a second), a terminal may legitimately have nothing in
// the window, so Stalled is reported but not judged.
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
	// StalledTerminals are the first maxStalledListed stalled terminals.
	StalledTerminals []int `json:"stalled_terminals,omitempty"`
	StallJudged      bool  `json:"stall_judged"`
}

// maxStalledListed bounds Terminals.StalledTerminals.
const maxStalledListed = 10

// stallMinMean is the mean count per terminal from which a terminal with
// none is judged stalled: a healthy terminal then went twenty mean
// transaction times without completing one.
const stallMinMean = 20

// TerminalsOf summarizes the per-terminal counts (index i is terminal i+1);
// nil when there are none. closedLoop (no think times, no target rate) and
// a mean of at least stallMinMean set StallJudged.
func TerminalsOf(counts []int64, closedLoop bool) *Terminals {
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
		if c == 0 {
			t.Stalled++
			if len(t.StalledTerminals) < maxStalledListed {
				t.StalledTerminals = append(t.StalledTerminals, i+1)
			}
		}
	}
	t.Mean = sum / float64(len(counts))
	t.StallJudged = closedLoop && t.Mean >= stallMinMean
	var sq float64
	for _, c := range counts {
		d := float64(c) - t.Mean
		sq += d * d
	}
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
	offset := 0
	for _, p := range parts {
		t := p.Terminals
		if t == nil || t.Count == 0 {
			return nil
		}
		k := float64(t.Count)
		n += k
		sum += k * t.Mean
		sumSq += k * (t.Stddev*t.Stddev + t.Mean*t.Mean)
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
		for _, s := range t.StalledTerminals {
			if len(out.StalledTerminals) < maxStalledListed {
				out.StalledTerminals = append(out.StalledTerminals, s+offset)
			}
		}
		offset += t.Count
	}
	out.Count = int(n)
	out.Mean = sum / n
	out.Stddev = math.Sqrt(math.Max(0, sumSq/n-out.Mean*out.Mean))
	out.round()
	return out
}

// StalledReason is the verdict's line for stalled terminals ("" when none
// or not judged).
func (t *Terminals) StalledReason(windowS float64) string {
	if t == nil || t.Stalled == 0 || !t.StallJudged {
		return ""
	}
	return fmt.Sprintf("stalled terminals: %d of %d completed no transaction in the %.0f s window (terminal %s: a lock wait or a hung session); the throughput is that of %d terminals",
		t.Stalled, t.Count, windowS, t.StalledList(), t.Count-t.Stalled)
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
