package console

import (
	"fmt"
	"io"
	"math"
	"strings"

	"benchpress/internal/results"
)

// Verdict writes what went wrong, if anything: the error samples per
// class, the prepared-statement plan when it ran statements as text, the
// open-loop figures, and the verdict with its reasons.
func Verdict(w io.Writer, r *results.Run) {
	if p := r.PreparedStatements; p != nil && p.Prepared < p.Kinds {
		fmt.Fprintf(w, "\nprepared statements: %d of %d per session server-side, the rest as text (max_prepared_stmt_count %d, %d in use before, %d sessions)\n",
			p.Prepared, p.Kinds, p.ServerLimit, p.InUseBefore, p.Terminals)
	}
	if rf := r.Rate; rf != nil {
		// The share is cut, not rounded (results.RatePct): 94.96 % of the
		// target is below the 95 % bound and never prints as 95.0.
		fmt.Fprintf(w, "\nopen loop (%s arrivals): achieved %.1f/s of the %.1f/s target (%s %%); late (> %.0f ms behind) %d, dropped %s\n",
			rf.Arrivals, rf.AchievedPerS, rf.TargetPerS, results.RatePct(100*rf.AchievedPerS/rf.TargetPerS), rf.LateAfterMS, rf.Late, droppedText(r))
		avgResp := r.Summary.AvgMS
		fmt.Fprintf(w, "response time (from the intended start) avg %.2f ms; service time (from the actual start) avg %.2f ms\n", avgResp, rf.ServiceAvgMS)
		if rf.AchievedPerS < 0.95*rf.TargetPerS {
			fmt.Fprintln(w, "WARNING the target rate was not reached: latencies count from the intended start (response time), the server was slower than the schedule")
		}
	}
	errorSamples(w, r.ErrorSamples)
	if r.Hint != "" {
		fmt.Fprintf(w, "\nhint: %s\n", r.Hint)
	}
	if r.Verdict == "" {
		return
	}
	fmt.Fprintf(w, "\nverdict: %s\n", strings.ToUpper(r.Verdict))
	for _, reason := range r.VerdictReasons {
		fmt.Fprintf(w, "  - %s\n", reason)
	}
}

// errorSamples lists the first distinct error messages per class. When
// some come from the warm-up, those are marked: the summary's error counts
// and the verdict are the window's, and a warm-up message under "errors 0"
// must not read as a failure of the measured run (nor its absence as a
// clean start).
func errorSamples(w io.Writer, samples []results.ErrorSample) {
	if len(samples) == 0 {
		return
	}
	warm := 0
	for _, s := range samples {
		if s.Phase == results.PhaseWarmup {
			warm++
		}
	}
	if warm == 0 {
		fmt.Fprintln(w, "\nerrors (first distinct messages per class):")
	} else {
		fmt.Fprintf(w, "\nerrors (first distinct messages per class; %d of %d from the warm-up, outside the window's counts):\n", warm, len(samples))
	}
	for _, s := range samples {
		code := ""
		if s.Code != "" {
			code = " [" + s.Code + "]"
		}
		mark := ""
		if warm > 0 && s.Phase == results.PhaseWarmup {
			mark = "warm-up "
		}
		fmt.Fprintf(w, "  %-15s %s%s%s x%d: %s\n", s.Class, mark, s.Op, code, s.Count, s.Message)
	}
}

// noWaitNote marks a TPC-C tpmC measured without keying and think times:
// it is a throughput figure, not a tpmC the specification would accept.
func noWaitNote(r *results.Run) string {
	if w, ok := r.Config["wait"].(bool); ok && !w {
		return " (no keying/think times)"
	}
	return ""
}

// droppedText is the open-loop dropped count as the console prints it.
// With Poisson arrivals it is the expected arrivals of the window less the
// operations started, an estimate: the arrivals themselves vary by about
// the square root of their expected count, which is said beside it.
func droppedText(r *results.Run) string {
	rf := r.Rate
	if rf.Arrivals != "poisson" {
		return fmt.Sprint(rf.Dropped)
	}
	sd := math.Sqrt(rf.TargetPerS * r.Summary.DurationS)
	return fmt.Sprintf("about %d (expected arrivals less those started; Poisson arrivals vary by +/- %.0f)", rf.Dropped, sd)
}
