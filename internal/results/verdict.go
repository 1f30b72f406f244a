package results

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Verdicts.
const (
	VerdictOK       = "ok"
	VerdictDegraded = "degraded"
	VerdictFailed   = "failed"
)

// Criteria are the bounds a run is judged against.
type Criteria struct {
	// MinSuccessPct: a success rate below it fails the run. 0 is a bound
	// (a failover test that expects errors: every run with a success
	// passes); MinSuccessUnset (any negative value) is the default,
	// DefaultMinSuccessPct, and in Merge the bound the partitions were
	// judged against.
	MinSuccessPct float64
	// OutageS is the shortest stretch of the measurement window without a
	// completed operation that counts as an outage (0: DefaultOutageS).
	OutageS float64
	// TargetRate is the open-loop target (ops/s); 0 for closed loop.
	TargetRate float64
}

// DefaultMinSuccessPct is --min-success's default.
const DefaultMinSuccessPct = 99

// MinSuccessUnset is Criteria.MinSuccessPct when no bound was given.
const MinSuccessUnset = -1

// DefaultOutageS is the shortest stretch without a completed operation
// that counts as an outage (subject to minOutageExpected).
const DefaultOutageS = 2

// minOutageExpected: a stretch without completions counts as an outage only
// when the run's average rate would have completed at least this many
// operations in it, so that slow runs (keying and think times, one
// terminal) are not judged by chance gaps.
const minOutageExpected = 10

// Outage is a stretch of the measurement window without a completed
// operation.
type Outage struct {
	FromS, ToS float64 // seconds since the start of the run
}

// Outages finds the stretches of at least minS seconds in r's measured
// series without a completed operation, given the run's average rate.
func Outages(r *Run, minS float64) []Outage {
	if minS <= 0 {
		minS = DefaultOutageS
	}
	if r.Summary.TPS*minS < minOutageExpected {
		minS = minOutageExpected / max(r.Summary.TPS, 1e-9)
	}
	var out []Outage
	var from, prevT float64
	in := false
	flush := func(to float64) {
		if in && to-from >= minS-1e-6 {
			out = append(out, Outage{FromS: from, ToS: to})
		}
		in = false
	}
	for _, iv := range r.Series {
		start := prevT
		prevT = iv.T
		if iv.Phase != "measure" {
			continue
		}
		var n int64
		for _, o := range iv.Ops {
			n += o.Count
		}
		if n > 0 {
			flush(start)
			continue
		}
		if !in {
			in, from = true, start
		}
	}
	flush(prevT)
	return out
}

// Judge sets r.Verdict and r.VerdictReasons: "failed" when the run was
// stopped by a fatal error, nothing succeeded, or the success rate is below
// c.MinSuccessPct; "degraded" when it was interrupted, had an outage,
// closed-loop terminals stalled (Terminals), sessions were lost in the
// window or could not be re-opened (lostReason), the throughput was not in
// steady state (SteadyReason), a check failed, or an open-loop run missed
// 95 % of its target rate; else "ok". Every reason is one line a user can
// act on.
//
// The bound used is saved in r.MinSuccessPct, so that a merge of
// partitions judges them by the bound they were run with.
func Judge(r *Run, c Criteria) {
	if c.MinSuccessPct < 0 {
		c.MinSuccessPct = DefaultMinSuccessPct
	}
	bound := c.MinSuccessPct
	r.MinSuccessPct = &bound
	var failed, degraded []string
	s := r.Summary
	if r.Error != "" {
		failed = append(failed, reasonStopped+r.Error)
	}
	switch {
	case s.Transactions == 0:
		failed = append(failed, reasonNothing)
	case s.SuccessRate < c.MinSuccessPct:
		failed = append(failed, successReason(r, c.MinSuccessPct))
	}
	if r.Status == "interrupted" {
		degraded = append(degraded, fmt.Sprintf("interrupted after %.1f s of measurement", s.DurationS))
	}
	if r.Abandoned > 0 {
		degraded = append(degraded, fmt.Sprintf("%d transaction(s) of the window were still in flight when the drain's grace ran out and were aborted: their response times (the whole drain or more) are not in the figures", r.Abandoned))
	}
	for _, o := range Outages(r, c.OutageS) {
		degraded = append(degraded, fmt.Sprintf("outage: no operation completed for %.0f s (t = %.0f..%.0f s)", o.ToS-o.FromS, o.FromS, o.ToS))
	}
	if reason := r.Terminals.StalledReason(s.DurationS); reason != "" {
		degraded = append(degraded, reason)
	}
	if reason := lostReason(r); reason != "" {
		degraded = append(degraded, reason)
	}
	if reason := SteadyReason(r); reason != "" {
		degraded = append(degraded, reason)
	}
	for _, ch := range r.Checks {
		if !ch.Passed && !ch.NotJudged {
			degraded = append(degraded, "check failed: "+ch.Name)
		}
	}
	if c.TargetRate > 0 && s.DurationS > 0 {
		achieved := s.TPS
		if r.Rate != nil {
			achieved = r.Rate.AchievedPerS
		}
		if achieved < 0.95*c.TargetRate {
			degraded = append(degraded, fmt.Sprintf("rate not achieved: %.1f/s of the %.1f/s target (%s %%)",
				achieved, c.TargetRate, RatePct(100*achieved/c.TargetRate)))
		}
	}
	switch {
	case len(failed) > 0:
		r.Verdict = VerdictFailed
	case len(degraded) > 0:
		r.Verdict = VerdictDegraded
	default:
		r.Verdict = VerdictOK
	}
	r.VerdictReasons = append(failed, degraded...)
}

// The reasons that fail a run (Judge); every other reason degrades it.
const (
	reasonStopped = "stopped: "
	reasonNothing = "no operation succeeded in the measurement window"
	reasonSuccess = "success rate "
)

// successReason is the verdict's line for r's success rate below bound.
func successReason(r *Run, bound float64) string {
	s := r.Summary
	return fmt.Sprintf("%s%s %% is below --min-success %g %% (%d errors%s)",
		reasonSuccess, RatePct(s.SuccessRate), bound, s.Errors, classList(r.ErrorsByClass))
}

// underBound is r's verdict and reasons with its success rate judged
// against bound instead of the bound it was judged against: the reason
// for its own bound is dropped, one for bound added when its rate is
// below it, and the verdict follows (failed by a stop, by no success or
// by the rate; degraded by any other reason). Every other reason stays as
// r has it.
func underBound(r *Run, bound float64) (string, []string) {
	var failed, other []string
	for _, reason := range r.VerdictReasons {
		switch {
		case strings.HasPrefix(reason, reasonSuccess):
		case strings.HasPrefix(reason, reasonStopped), reason == reasonNothing:
			failed = append(failed, reason)
		default:
			other = append(other, reason)
		}
	}
	if r.Summary.Transactions > 0 && r.Summary.SuccessRate < bound {
		failed = append(failed, successReason(r, bound))
	}
	switch {
	case len(failed) > 0:
		return VerdictFailed, append(failed, other...)
	case len(other) > 0:
		return VerdictDegraded, other
	}
	return VerdictOK, nil
}

// RatePct formats a success rate (in percent) with two decimals, cut
// (rounded down), never rounded up: a rate below a bound of two decimals or
// fewer never prints as the bound or above it (98.996 is "98.99", not
// "99.00", under --min-success 99), and only a rate of exactly 100 prints
// as "100.00". The decimals cut are those of the shortest decimal that
// reads back as v, so 99.99 stays "99.99".
func RatePct(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	i := strings.IndexByte(s, '.')
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return s
	case i < 0:
		return s + ".00"
	case len(s)-i > 3:
		return s[:i+3]
	}
	return s + strings.Repeat("0", 3-(len(s)-i))
}

// lostClass is the error class of a lost session (errclass names).
const lostClass = "lost_connection"

// lostReason is the verdict's line for lost sessions ("" when none): a
// session lost in the measurement window (server restart, failover, a
// proxy dropping connections, an administrator's kill) means the run did
// not measure the steady service it claims, however high its success rate.
// It says how many sessions were lost in the window (failed attempts of
// class lost_connection: a terminal re-opens its session after each), how
// many were re-opened over the run, the failed reconnect attempts, and the
// server's own text of the first loss (firstLoss). Failed reconnect
// attempts without a loss in the window (lost in warm-up) are a reason too.
func lostReason(r *Run) string {
	lost := r.ErrorsByClass[lostClass]
	if lost == 0 {
		if r.ReconnectFailures > 0 {
			return fmt.Sprintf("%d failed reconnect attempt(s) after lost connections", r.ReconnectFailures)
		}
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "lost connections: %d session(s) lost in the measurement window, %d re-opened", lost, r.Reconnects)
	if r.ReconnectFailures > 0 {
		fmt.Fprintf(&b, ", %d failed reconnect attempt(s)", r.ReconnectFailures)
	}
	if msg := firstLoss(r.ErrorSamples); msg != "" {
		b.WriteString("; first: " + msg)
	}
	return b.String()
}

// firstLoss is the message of the first lost-connection sample of the
// window that carries a server error code (the server's own text:
// "terminating connection due to administrator command", "Connection was
// killed"), else of the window's first one (a transport error: EOF,
// reset); "" when none. A warm-up sample is quoted only when the window
// kept none (a file from before samples kept their phase, or a table that
// filled): the losses this reason counts are the window's.
func firstLoss(samples []ErrorSample) string {
	first, warm := "", ""
	for _, es := range samples {
		if es.Class != lostClass {
			continue
		}
		if es.Phase == PhaseWarmup {
			if warm == "" {
				warm = es.Message
			}
			continue
		}
		if es.Code != "" {
			return es.Message
		}
		if first == "" {
			first = es.Message
		}
	}
	if first == "" {
		return warm
	}
	return first
}

func classList(m map[string]int64) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return ": " + strings.Join(parts, ", ")
}

// Rejudge folds checks added after Judge (a consistency check run after the
// measurement) into the verdict: each failed, judged check not yet among
// the reasons is added, and an "ok" verdict becomes "degraded".
func Rejudge(r *Run) {
	if r.Verdict == "" {
		return
	}
	have := map[string]bool{}
	for _, reason := range r.VerdictReasons {
		have[reason] = true
	}
	for _, ch := range r.Checks {
		reason := "check failed: " + ch.Name
		if ch.Passed || ch.NotJudged || have[reason] {
			continue
		}
		r.VerdictReasons = append(r.VerdictReasons, reason)
		if r.Verdict == VerdictOK {
			r.Verdict = VerdictDegraded
		}
	}
}

// AfterUnfinished marks a measured run whose after-run step (TPC-C's
// --check) did not finish: stopped by the user (interrupted: status
// "interrupted") or failed (its session lost). The figures stand; the
// verdict is at best degraded, with the reason, so that the partial list
// of passed checks never reads as a checked run.
func AfterUnfinished(r *Run, err error, interrupted bool) {
	if r == nil || err == nil {
		return
	}
	reason := "the consistency check did not finish: " + err.Error()
	if interrupted {
		if r.Status == "" || r.Status == "ok" {
			r.Status = "interrupted"
		}
		reason = "interrupted after the measurement (in the consistency check): " + err.Error()
	}
	if r.Verdict == VerdictOK || r.Verdict == "" {
		r.Verdict = VerdictDegraded
	}
	r.VerdictReasons = append(r.VerdictReasons, reason)
}
