package sysbench

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"benchpress/internal/console"
	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/target"
)

// liveLine is sysbench's intermediate report line:
// [ 10s ] thds: 8 tps: 1234.50 qps: 24690.10 (r/w/o: .../.../...) lat (ms,95%): 8.43 err/s: 0.00 reconn/s: 0.00
// err/s counts restarted events (ignored errors) and failed ones; reconn/s
// counts lost connections, each of which makes the thread reconnect.
func liveLine(r runner.Report, threads int) string {
	s := r.Snap
	secs := r.Seconds
	if secs <= 0 {
		secs = 1
	}
	var events, errs, reconn int64
	for i := range s.Counts {
		c := &s.Counts[i]
		events += c.OK + c.Rollback
		errs += c.Retries + c.Errors()
		reconn += c.Errs[target.ClassLostConnection]
	}
	var rd, wr, ot int64
	if len(s.Extra) >= numExtras {
		rd, wr, ot = s.Extra[exReads], s.Extra[exWrites], s.Extra[exOthers]
		errs += s.Extra[exIgnored]
	}
	var p95 float64
	if len(s.OKHist) > 0 && s.OKHist[0] != nil && s.OKHist[0].TotalCount() > 0 {
		p95 = float64(s.OKHist[0].ValueAtQuantile(95)) / 1000
	}
	per := func(n int64) float64 { return float64(n) / secs }
	line := fmt.Sprintf("[ %s ] thds: %d tps: %.2f qps: %.2f (r/w/o: %.2f/%.2f/%.2f) lat (ms,95%%): %.2f err/s: %.2f reconn/s: %.2f",
		console.Elapsed(r.Elapsed), threads, per(events), per(rd+wr+ot), per(rd), per(wr), per(ot), p95, per(errs), per(reconn))
	if r.Phase == "warmup" {
		line += " (warm-up)"
	}
	return line
}

// liveLineFor binds the thread count.
func liveLineFor(threads int) func(runner.Report) string {
	return func(r runner.Report) string { return liveLine(r, threads) }
}

// printReport writes sysbench 1.0's final report from run.
func printReport(w io.Writer, run *results.Run, pcts []float64) {
	s := run.Summary
	secs := s.DurationS
	per := func(n int64) float64 {
		if secs <= 0 {
			return 0
		}
		return float64(n) / secs
	}
	q, _ := run.Extra["queries"].(map[string]int64)
	var ignored int64
	if sb, ok := run.Extra["sysbench"].(*Summary); ok {
		ignored = sb.IgnoredErrors
	}
	console.Title(w, run)
	fmt.Fprintf(w, "threads: %v, rand-type: %v, measured %.1f s after %.0f s warm-up%s\n\n",
		run.Config["threads"], run.Config["rand_type"], secs, run.WarmupS, console.Status(run))
	kv := func(indent int, k, v string) {
		fmt.Fprintf(w, "%s%-*s%s\n", strings.Repeat(" ", indent), 41-indent, k, v)
	}
	fmt.Fprintln(w, "SQL statistics:")
	fmt.Fprintln(w, "    queries performed:")
	kv(8, "read:", fmt.Sprint(q["read"]))
	kv(8, "write:", fmt.Sprint(q["write"]))
	kv(8, "other:", fmt.Sprint(q["other"]))
	kv(8, "total:", fmt.Sprint(q["total"]))
	kv(4, "transactions:", fmt.Sprintf("%-6d (%.2f per sec.)", s.Transactions, per(s.Transactions)))
	kv(4, "queries:", fmt.Sprintf("%-6d (%.2f per sec.)", q["total"], per(q["total"])))
	retried := ""
	if c := console.ErrClasses(run.RetriesByClass); c != "" {
		retried = "  restarted:" + c
	}
	kv(4, "ignored errors:", fmt.Sprintf("%-6d (%.2f per sec.)%s", ignored, per(ignored), retried))
	kv(4, "reconnects:", fmt.Sprintf("%-6d (%.2f per sec.)", run.Reconnects, per(run.Reconnects)))
	if s.Errors > 0 {
		kv(4, "failed events:", fmt.Sprintf("%-6d (%.2f per sec.)%s", s.Errors, per(s.Errors), console.ErrClasses(run.ErrorsByClass)))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "General statistics:")
	kv(4, "total time:", fmt.Sprintf("%.4fs", secs))
	kv(4, "total number of events:", fmt.Sprint(s.Transactions))
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Latency (ms):")
	var h interface {
		Min() int64
		Max() int64
		Mean() float64
		TotalCount() int64
		ValueAtQuantile(float64) int64
	}
	if len(run.Ops) > 0 {
		if enc, ok := run.Histograms[run.Ops[0].Name]; ok {
			if d, err := results.DecodeHistogram(enc); err == nil && d.TotalCount() > 0 {
				h = d
			}
		}
	}
	ms := func(us float64) string { return fmt.Sprintf("%.2f", us/1000) }
	lat := func(k, v string) { fmt.Fprintf(w, "         %-20s%20s\n", k, v) }
	if h == nil {
		lat("min:", "0.00")
		lat("avg:", "0.00")
		lat("max:", "0.00")
		lat("sum:", "0.00")
	} else {
		lat("min:", ms(float64(h.Min())))
		lat("avg:", ms(h.Mean()))
		lat("max:", ms(float64(h.Max())))
		for _, p := range pcts {
			lat(pctName(p)+" percentile:", ms(float64(h.ValueAtQuantile(p))))
		}
		lat("sum:", ms(h.Mean()*float64(h.TotalCount())))
	}
	if f := fairnessLine(run); f != "" {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Threads fairness:")
		kv(4, "events (avg/stddev):", f)
		console.StalledLine(w, run)
	}
	console.DriverLine(w, run)
}

// pctName renders 95 as "95th", 99.9 as "99.9th".
func pctName(p float64) string {
	return strconv.FormatFloat(p, 'f', -1, 64) + "th"
}

// fairnessLine is sysbench's "events (avg/stddev)": each thread's events
// (failed ones are not events) averaged over all threads. A merged result
// or an older file has no per-thread events: the average is then the
// events over the threads, and the standard deviation that of the
// attempts per terminal when no event failed (else "-", unknown).
func fairnessLine(run *results.Run) string {
	switch sb := run.Extra["sysbench"].(type) {
	case *Summary:
		if sb.Fairness != nil {
			return fmt.Sprintf("%.4f/%.2f", sb.Fairness.EventsAvg, sb.Fairness.EventsStddev)
		}
	case map[string]any: // read back from a file
		if f, ok := sb["threads_fairness"].(map[string]any); ok {
			avg, _ := f["events_avg"].(float64)
			sd, _ := f["events_stddev"].(float64)
			return fmt.Sprintf("%.4f/%.2f", avg, sd)
		}
	}
	t := run.Terminals
	if t == nil || t.Count == 0 {
		return ""
	}
	sd := "-"
	if run.Summary.Errors == 0 {
		sd = fmt.Sprintf("%.1f", t.Stddev) // Terminals keeps one decimal
	}
	return fmt.Sprintf("%.4f/%s", float64(run.Summary.Transactions)/float64(t.Count), sd)
}
