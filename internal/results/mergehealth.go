package results

import (
	"fmt"
	"math"
)

// mergeStmts folds a partition's prepared-statement plan into the merged
// run's: the plan of the partition that prepared fewest (its sessions ran
// the most statements as text, which the merged run must not hide), over
// all the partitions' sessions.
func mergeStmts(acc, p *PreparedStmts) *PreparedStmts {
	if p == nil {
		return acc
	}
	if acc == nil {
		m := *p
		m.RunTerminals = 0
		return &m
	}
	terms := acc.Terminals + p.Terminals
	if p.Prepared < acc.Prepared {
		*acc = *p
		acc.RunTerminals = 0
	}
	acc.Terminals = terms
	return acc
}

// mergeHealth carries the partitions' health figures into the merged result
// and judges it: error samples (same class, code, op, message and phase counted
// once, their counts summed), failed reconnects and open-loop figures summed,
// the first stop reason, then Judge over the merged figures (an outage of the
// merged series is an outage of the whole run). A partition whose own verdict
// was worse adds its reasons, prefixed with its index, so a degraded or
// failed partition can never hide behind a healthy sum.
func mergeHealth(out *Run, parts []*Run, c Criteria) {
	type key struct{ class, code, op, msg, phase string }
	at := map[key]int{}
	var rate *RateFigures
	var serviceWeighted, started float64
	for _, p := range parts {
		for _, s := range p.ErrorSamples {
			k := key{s.Class, s.Code, s.Op, s.Message, s.Phase}
			if i, ok := at[k]; ok {
				out.ErrorSamples[i].Count += s.Count
				continue
			}
			at[k] = len(out.ErrorSamples)
			out.ErrorSamples = append(out.ErrorSamples, s)
		}
		out.ReconnectFailures += p.ReconnectFailures
		out.PreparedStatements = mergeStmts(out.PreparedStatements, p.PreparedStatements)
		if out.Error == "" && p.Error != "" {
			out.Error = fmt.Sprintf("partition %d: %s", p.Partition.Index, p.Error)
			out.Hint = p.Hint
		}
		if r := p.Rate; r != nil {
			if rate == nil {
				rate = &RateFigures{LateAfterMS: r.LateAfterMS, Arrivals: r.Arrivals}
			}
			rate.TargetPerS += r.TargetPerS
			rate.AchievedPerS += r.AchievedPerS
			rate.Late += r.Late
			rate.Dropped += r.Dropped
			n := r.AchievedPerS * p.Summary.DurationS
			serviceWeighted += r.ServiceAvgMS * n
			started += n
		}
	}
	if rate != nil {
		if started > 0 {
			rate.ServiceAvgMS = math.Round(serviceWeighted/started*1000) / 1000
		}
		out.Rate = rate
		c.TargetRate = rate.TargetPerS
	}
	if c.MinSuccessPct < 0 {
		c.MinSuccessPct = partsMinSuccess(parts)
	}
	Judge(out, c)
	rank := map[string]int{VerdictOK: 0, VerdictDegraded: 1, VerdictFailed: 2}
	for _, p := range parts {
		// A partition's success rate counts against the merge's bound
		// (merge --min-success 90 over partitions run with 99).
		verdict, reasons := p.Verdict, p.VerdictReasons
		if p.Verdict != "" && (p.MinSuccessPct == nil || *p.MinSuccessPct != c.MinSuccessPct) {
			verdict, reasons = underBound(p, c.MinSuccessPct)
		}
		if rank[verdict] == 0 {
			continue
		}
		for _, reason := range reasons {
			out.VerdictReasons = append(out.VerdictReasons, fmt.Sprintf("partition %d: %s", p.Partition.Index, reason))
		}
		if rank[verdict] > rank[out.Verdict] {
			out.Verdict = verdict
		}
	}
}

// partsMinSuccess is the --min-success bound the partitions were judged
// against: the highest, should they differ (DefaultMinSuccessPct for
// files from before the bound was saved).
func partsMinSuccess(parts []*Run) float64 {
	bound := float64(MinSuccessUnset)
	for _, p := range parts {
		v := float64(DefaultMinSuccessPct)
		if p.MinSuccessPct != nil {
			v = *p.MinSuccessPct
		}
		bound = max(bound, v)
	}
	if bound < 0 {
		return DefaultMinSuccessPct
	}
	return bound
}
