package report

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"benchpress/internal/results"
)

// stepNotes marks a step: failed, interrupted, driver-bound, part of its
// statements as text, merged or one partition's share, peak, saturation.
func stepNotes(c *Case, s *Step) string {
	var n []string
	switch s.Run.Status {
	case "failed":
		return "FAILED: " + firstLine(s.Run.Error)
	case "interrupted":
		n = append(n, "interrupted")
	}
	switch s.Run.Verdict {
	case results.VerdictFailed:
		n = append(n, "FAILED: "+firstReason(s.Run))
	case results.VerdictDegraded:
		n = append(n, "DEGRADED: "+firstReason(s.Run))
	}
	if s.Run.Driver != nil && s.Run.Driver.DriverBound {
		n = append(n, "driver-bound")
	}
	if b := stepBottleneck(s); b != "" {
		n = append(n, b)
	}
	if t := textStmtNote(s.Run); t != "" {
		n = append(n, t)
	}
	if m := s.Run.Merged; m != nil {
		n = append(n, fmt.Sprintf("%d partitions merged", len(m.Partitions)))
	}
	if p := partitionNote(s.Run); p != "" {
		n = append(n, "**"+p+"**")
	}
	if s == c.Peak() {
		n = append(n, "peak")
	}
	if s == c.Saturation() {
		n = append(n, "saturation")
	}
	return strings.Join(n, ", ")
}

// textStmtNote says that a MySQL step ran part of its statements as text
// to fit the server's max_prepared_stmt_count ("7 of 96 statements
// prepared, the rest as text (max_prepared_stmt_count 16382)"), or "":
// the client-server work per transaction differs from the steps that
// prepared every statement, which the step table must not hide.
func textStmtNote(r *results.Run) string {
	p := r.PreparedStatements
	if p == nil || p.Prepared >= p.Kinds {
		return ""
	}
	return fmt.Sprintf("%d of %d statements prepared, the rest as text (max_prepared_stmt_count %d)", p.Prepared, p.Kinds, p.ServerLimit)
}

// partitionNote says that r is one partition's result of a partitioned
// run (--partition I/N, --processes), or "": its figures are one load
// process's share of the run while its configuration (the concurrency a
// report shows) is the whole run's, so beside whole runs it looks like the
// run at about 1/N of its throughput.
func partitionNote(r *results.Run) string {
	p := r.Partition
	if p == nil {
		return ""
	}
	share := ""
	if p.Terminals > 0 {
		share = fmt.Sprintf(" (%d terminals)", p.Terminals)
	}
	return fmt.Sprintf("partition %d/%d: one process's share%s, not the run's; merge the partitions with benchpress merge", p.Index, p.Count, share)
}

// failedRow fills a row of width cols for a failed step.
func failedRow(first string, cols int, note string) []string {
	row := []string{first}
	for len(row) < cols-1 {
		row = append(row, "-")
	}
	return append(row, note)
}

// caseTable is the per-step table in the seed reports' shape for c's kind.
func caseTable(c *Case) Table {
	switch c.Kind() {
	case KindTPCC:
		return tpccTable(c)
	case KindYCSB:
		return ycsbTable(c)
	}
	return sysbenchTable(c)
}

// tpccTable is the TPC-C step table; with an "Efficiency %" column when a
// step ran with keying and think times (tpmC / the 12.86 tpmC per
// warehouse the spec's times allow, clause 4.2), where the tpmC is one the
// specification would accept.
func tpccTable(c *Case) Table {
	t := Table{Header: []string{"Concurrency", "tpmC (NewOrders)", "tpmTOTAL", "TPS", "Success rate", "Avg ms", "p95 ms", "p99 ms", "Errors", "Notes"}, Align: "rrrrrrrrrl"}
	eff := false
	for _, s := range c.Steps {
		eff = eff || s.Run.Summary.Efficiency > 0
	}
	if eff {
		t.Header = append(t.Header[:5:5], append([]string{"Efficiency %"}, t.Header[5:]...)...)
		t.Align = "rrrrrr" + t.Align[5:]
	}
	for _, s := range c.Steps {
		note := stepNotes(c, s)
		if !s.ok() {
			t.Rows = append(t.Rows, failedRow(fmt.Sprint(s.Concurrency), len(t.Header), note))
			continue
		}
		m := s.Run.Summary
		row := []string{fmt.Sprint(s.Concurrency), f2(m.TpmC), f2(m.TpmTotal), f2(m.TPS), rate(m.SuccessRate)}
		if eff {
			e := "-"
			if m.Efficiency > 0 {
				e = fmt.Sprintf("%.1f", m.Efficiency)
			}
			row = append(row, e)
		}
		t.Rows = append(t.Rows, append(row, f2(m.AvgMS), f2(m.P95MS), f2(m.P99MS), fmt.Sprint(m.Errors), note))
	}
	return t
}

// noWaitSteps counts c's steps measured without keying and think times.
func noWaitSteps(c *Case) int {
	n := 0
	for _, s := range c.Steps {
		if s.ok() && NoWait(s.Run) {
			n++
		}
	}
	return n
}

// minMax is the lowest min and highest max latency over all ops of a run.
func minMax(r *results.Run) (lo, hi float64) {
	lo = math.Inf(1)
	for _, o := range r.Ops {
		if o.Count == 0 {
			continue
		}
		lo = math.Min(lo, o.Latency.Min)
		hi = math.Max(hi, o.Latency.Max)
	}
	if math.IsInf(lo, 1) {
		lo = 0
	}
	return lo, hi
}

func sysbenchTable(c *Case) Table {
	t := Table{Header: []string{"Threads", "TPS", "QPS", "Min ms", "Avg ms", "p95 ms", "Max ms", "Errors/s", "Notes"}, Align: "rrrrrrrrl"}
	for _, s := range c.Steps {
		note := stepNotes(c, s)
		if !s.ok() {
			t.Rows = append(t.Rows, failedRow(fmt.Sprint(s.Concurrency), len(t.Header), note))
			continue
		}
		m := s.Run.Summary
		lo, hi := minMax(s.Run)
		eps := 0.0
		if m.DurationS > 0 {
			eps = float64(m.Errors) / m.DurationS
		}
		t.Rows = append(t.Rows, []string{fmt.Sprint(s.Concurrency), f2(m.TPS), f2(m.QPS), f2(lo), f2(m.AvgMS), f2(m.P95MS), f2(hi), f2(eps), note})
	}
	return t
}

// ycsbTable has one row per operation type and step; latency in microseconds.
func ycsbTable(c *Case) Table {
	t := Table{Header: []string{"Type", "Threads", "Ops", "Ops/s", "Min us", "Avg us", "p99 us", "p99.9 us", "p99.99 us", "Max us", "Errors", "Notes"}, Align: "lrrrrrrrrrrl"}
	for _, s := range c.Steps {
		note := stepNotes(c, s)
		if !s.ok() {
			t.Rows = append(t.Rows, append([]string{"-"}, failedRow(fmt.Sprint(s.Concurrency), len(t.Header)-1, note)...))
			continue
		}
		for _, o := range s.Run.Ops {
			l := o.Latency
			t.Rows = append(t.Rows, []string{o.Name, fmt.Sprint(s.Concurrency), fmt.Sprint(o.Count), f2(o.PerSec),
				us(l.Min), us(l.Avg), us(l.P99), us(l.P999), us(l.P9999), us(l.Max), fmt.Sprint(o.Errors), note})
		}
	}
	return t
}

// opsTable lists every transaction type of one step (the TPC-C mix).
func opsTable(r *results.Run) Table {
	t := Table{Header: []string{"Transaction", "Count", "Per minute", "Rollbacks", "Errors", "Avg ms", "p90 ms", "p95 ms", "p99 ms", "Max ms"}, Align: "lrrrrrrrrr"}
	for _, o := range r.Ops {
		l := o.Latency
		t.Rows = append(t.Rows, []string{o.Name, fmt.Sprint(o.Count), f2(o.PerMin), fmt.Sprint(o.Rollbacks), fmt.Sprint(o.Errors),
			f2(l.Avg), f2(l.P90), f2(l.P95), f2(l.P99), f2(l.Max)})
	}
	return t
}

// checksTable lists the consistency and response-time checks of every step.
func checksTable(c *Case) (Table, int) {
	t := Table{Header: []string{"Concurrency", "Check", "Result", "Detail"}, Align: "rlll"}
	failed := 0
	for _, s := range c.Steps {
		for _, ch := range s.Run.Checks {
			res := "PASS"
			switch {
			case ch.NotJudged:
				res = "N/A"
			case !ch.Passed:
				res = "**FAIL**"
				failed++
			}
			t.Rows = append(t.Rows, []string{fmt.Sprint(s.Concurrency), ch.Name, res, ch.Detail})
		}
	}
	return t, failed
}

// errorClasses sums the error classes of a case's steps, sorted by name.
func errorClasses(c *Case) []string {
	sum := map[string]int64{}
	for _, s := range c.Steps {
		for k, v := range s.Run.ErrorsByClass {
			sum[k] += v
		}
	}
	var out []string
	for k, v := range sum {
		if v > 0 {
			out = append(out, fmt.Sprintf("%s: %d", k, v))
		}
	}
	sort.Strings(out)
	return out
}

// firstReason is the first verdict reason of a run, on one line.
func firstReason(r *results.Run) string {
	if len(r.VerdictReasons) == 0 {
		return r.Verdict
	}
	return firstLine(r.VerdictReasons[0])
}

// errorSamplesTable lists the first distinct error messages of a case's
// steps: concurrency, phase (warm-up or window: only the window's errors
// are in the step's figures), class, server code, operation, count,
// message.
func errorSamplesTable(c *Case) Table {
	t := Table{Header: []string{"Concurrency", "Phase", "Class", "Code", "Operation", "Count", "Message"}, Align: "rlllrrl"}
	for _, s := range c.Steps {
		for _, e := range s.Run.ErrorSamples {
			phase := e.Phase
			if phase == results.PhaseWarmup {
				phase = "warm-up"
			}
			t.Rows = append(t.Rows, []string{fmt.Sprint(s.Concurrency), phase, e.Class, e.Code, e.Op, fmt.Sprint(e.Count), firstLine(e.Message)})
		}
	}
	return t
}
