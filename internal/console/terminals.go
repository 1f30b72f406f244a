package console

import (
	"fmt"
	"io"

	"benchpress/internal/results"
)

// TerminalsLine writes how the window's work spread over the terminals
// (sysbench's "threads fairness") and which completed nothing; nothing
// for a single terminal.
func TerminalsLine(w io.Writer, r *results.Run) {
	t := r.Terminals
	if t == nil || t.Count < 2 {
		return
	}
	noun := unitNoun(r)
	fmt.Fprintf(w, "\nper %s: %s transactions on average, stddev %.1f %%, least %s (%s %d), most %s (%s %d)\n",
		noun, F1(t.Mean), t.StddevPct, FI(t.Min), noun, t.MinTerminal, FI(t.Max), noun, t.MaxTerminal)
	StalledLine(w, r)
}

// StalledLine writes which terminals stalled (completed no transaction in
// the window, or none for a long stretch of it, with the stretch), and
// whether the verdict counts it; nothing when none.
func StalledLine(w io.Writer, r *results.Run) {
	t := r.Terminals
	if t == nil || t.Stalled == 0 {
		return
	}
	noun := unitNoun(r)
	judged := "STALLED"
	if !t.StallJudged {
		judged = "(not judged: think times, a target rate or too few transactions per " + noun + ")"
	}
	if t.StalledPartly > 0 {
		fmt.Fprintf(w, "%d of %d %ss completed nothing for a long stretch of the window: %s %s\n", t.Stalled, t.Count, noun, t.StalledStretches(), judged)
		return
	}
	fmt.Fprintf(w, "%d of %d %ss completed no transaction in the window: %s %s\n", t.Stalled, t.Count, noun, t.StalledList(), judged)
}

// unitNoun is what the run calls its concurrent sessions: "thread" for the
// sysbench tests (their --threads), else "terminal".
func unitNoun(r *results.Run) string {
	if _, ok := r.Config["threads"]; ok {
		return "thread"
	}
	return "terminal"
}
