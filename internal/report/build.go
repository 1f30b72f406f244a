package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"benchpress/internal/results"
)

// Build turns a dataset into a document with its charts.
func Build(ds *Dataset) (*Doc, error) {
	d := &Doc{Title: ds.Title}
	if ds.Description != "" {
		d.p(ds.Description)
	}
	summarySection(d, ds)
	envSection(d, ds)
	if err := chartSection(d, ds); err != nil {
		return nil, err
	}
	comparisonSection(d, ds)
	for _, c := range ds.Cases {
		if err := caseSection(d, c); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// summarySection: one row per case with its peak and saturation point.
func summarySection(d *Doc, ds *Dataset) {
	d.h(2, "Summary")
	t := Table{Header: []string{"Case", "Workload", "Target", "Steps", "Peak at", "Peak throughput", "p95 at peak ms", "Saturation at", "Failed / degraded steps", "Warnings"}, Align: "lllrrrrrrl"}
	for _, c := range ds.Cases {
		peakAt, peakV, p95, sat := "-", "-", "-", "-"
		if p := c.Peak(); p != nil {
			peakAt = fmt.Sprint(p.Concurrency)
			peakV = f2(Throughput(p.Run)) + " " + MetricName(c.Kind())
			if NoWait(p.Run) {
				peakV += " " + NoWaitMark
			}
			p95 = f2(p.Run.Summary.P95MS)
		}
		failed, bound, judged := 0, 0, 0
		for _, s := range c.Steps {
			if s.judgedOK() {
				judged++
			}
			if s.Run.Status == "failed" || s.Run.Verdict == results.VerdictFailed || s.Run.Verdict == results.VerdictDegraded {
				failed++
			}
			if s.Run.Driver != nil && s.Run.Driver.DriverBound {
				bound++
			}
		}
		// "not reached" needs two steps judged ok that still gained; with
		// fewer the saturation point cannot be told ("-").
		// Steps of the plan that never ran leave the ladder short: its
		// saturation cannot be "not reached", and the row says so.
		notRun := c.NotRun()
		if st := c.Saturation(); st != nil {
			sat = fmt.Sprint(st.Concurrency)
		} else if judged >= 2 && len(notRun) == 0 {
			sat = "not reached"
		}
		steps := fmt.Sprint(len(c.Steps))
		warn := ""
		if len(notRun) > 0 {
			steps = fmt.Sprintf("%d of %d", len(c.Steps), len(c.Steps)+len(notRun))
			warn = "not run: " + joinInts(notRun)
		}
		if bound > 0 {
			warn = joinWarn(warn, fmt.Sprintf("driver-bound in %d step(s)", bound))
		}
		if p := partitioned(c); p != nil {
			// One machine's files of a run split over several: every
			// figure of the row is its share.
			warn = joinWarn(warn, fmt.Sprintf("partition %d/%d: one process's share of each step, not the run's (benchpress merge)", p.Index, p.Count))
		}
		warn = joinWarn(warn, watchWarnings(c))
		t.Rows = append(t.Rows, []string{c.ID, c.Workload, c.Target, steps, peakAt, peakV, p95, sat, fmt.Sprint(failed), warn})
	}
	d.table(t)
	d.p(fmt.Sprintf("Peak is the step with the highest throughput among those that ran to their end with verdict ok (failed, degraded and interrupted steps are never the peak). Saturation is the first step after which more concurrency adds less than %.0f%% throughput, among the same steps.", SaturationGain*100))
}

// envSection: client host, benchpress version and the targets.
func envSection(d *Doc, ds *Dataset) {
	env := ds.Env
	if env == nil {
		return
	}
	d.h(2, "Test environment")
	h := env.Client
	rows := [][]string{
		{"benchpress", env.Benchpress + " (" + env.GoVersion + ")"},
		{"Client host", h.Hostname},
		{"OS", strings.TrimSpace(h.OS + " " + h.Platform)},
		{"Kernel", h.Kernel},
		{"Architecture", h.Arch},
		{"CPU", h.CPUModel},
		{"Logical CPUs / cores", fmt.Sprintf("%d / %d", h.CPUs, h.CPUCores)},
	}
	if h.MemTotalBytes > 0 {
		rows = append(rows, []string{"Memory", gib(h.MemTotalBytes)})
	}
	d.table(Table{Header: []string{"Item", "Value"}, Rows: rows})
	names := make([]string, 0, len(env.Targets))
	for n := range env.Targets {
		names = append(names, n)
	}
	sort.Strings(names)
	tt := Table{Header: []string{"Target", "URL", "Server version", "Settings"}}
	for _, n := range names {
		te := env.Targets[n]
		keys := make([]string, 0, len(te.Settings))
		for k := range te.Settings {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var set []string
		for _, k := range keys {
			set = append(set, k+"="+te.Settings[k])
		}
		if te.ProbeError != "" {
			set = append(set, "probe failed: "+firstLine(te.ProbeError))
		}
		tt.Rows = append(tt.Rows, []string{n, te.URL, te.ServerVersion, strings.Join(set, ", ")})
	}
	d.table(tt)
}

// chartSection: throughput and latency vs concurrency per workload kind.
func chartSection(d *Doc, ds *Dataset) error {
	kinds, by := groups(ds.Cases)
	d.h(2, "Charts")
	for _, k := range kinds {
		th, err := throughputChart(k, by[k])
		if err != nil {
			return err
		}
		lat, err := latencyChart(k, by[k])
		if err != nil {
			return err
		}
		d.add(th, lat)
	}
	return nil
}

// caseSection: the step table, the TPC-C mix at peak, checks and warnings,
// and the throughput timeline.
func caseSection(d *Doc, c *Case) error {
	d.h(2, "Case "+c.ID)
	if c.Description != "" {
		d.p(c.Description)
	}
	d.p(fmt.Sprintf("Workload `%s` against `%s`.", c.Workload, c.Target))
	d.table(caseTable(c))
	if c.Kind() == KindTPCC {
		if n := noWaitSteps(c); n > 0 {
			d.note(false, fmt.Sprintf("tpmC %s: %d step(s) ran without the keying and think times of clause 5.2.5 (closed loop, --wait off): a throughput figure, not a tpmC the TPC-C specification would accept; efficiency is not given.", NoWaitMark, n))
		}
	}
	if nr := c.NotRun(); len(nr) > 0 {
		d.note(true, fmt.Sprintf("Step(s) %s of the plan's ladder did not run (the sweep was interrupted before them): this ladder is incomplete; `sweep --resume` runs them.", joinInts(nr)))
	}
	for _, s := range c.Steps {
		if s.Run.Status == "failed" {
			d.note(true, fmt.Sprintf("Step %d failed: %s", s.Concurrency, oneLine(s.Run.Error)))
		}
		if v := s.Run.Verdict; (v == results.VerdictFailed || v == results.VerdictDegraded) && !onlyStopped(s.Run) {
			d.note(true, fmt.Sprintf("Step %d verdict %s: %s", s.Concurrency, v, strings.Join(s.Run.VerdictReasons, "; ")))
		}
		for _, n := range s.Run.Notes {
			d.note(true, fmt.Sprintf("Step %d: %s", s.Concurrency, n))
		}
		if s.Run.Hint != "" {
			d.note(true, fmt.Sprintf("Step %d hint: %s", s.Concurrency, s.Run.Hint))
		}
		if s.Run.Driver != nil && s.Run.Driver.DriverBound {
			note := s.Run.Driver.DriverBoundNote
			if note == "" {
				note = fmt.Sprintf("the load machine was %.0f%% busy", s.Run.Driver.MachineBusyPct)
			}
			d.note(true, fmt.Sprintf("Step %d may be driver-bound (the load generator, not the database, may limit throughput): %s", s.Concurrency, note))
		}
	}
	if ec := errorClasses(c); len(ec) > 0 {
		d.p("Errors by class over all steps: " + strings.Join(ec, ", ") + ".")
	}
	if t := errorSamplesTable(c); len(t.Rows) > 0 {
		d.h(3, "Error messages (first distinct per class)")
		d.table(t)
	}
	if p := c.Peak(); p != nil && c.Kind() == KindTPCC && len(p.Run.Ops) > 0 {
		d.h(3, fmt.Sprintf("Transaction mix at peak (concurrency %d)", p.Concurrency))
		d.table(opsTable(p.Run))
	}
	if err := watchSection(d, c); err != nil {
		return err
	}
	if t, failed := checksTable(c); len(t.Rows) > 0 {
		d.h(3, "Consistency and response-time checks")
		d.table(t)
		if failed > 0 {
			d.note(true, fmt.Sprintf("%d check(s) failed.", failed))
		}
	}
	ch, ok, err := timelineChart(c)
	if err != nil {
		return err
	}
	if ok {
		d.add(ch)
	}
	return nil
}

// partitioned returns the partition of the first of c's steps that is one
// partition's result (not merged), or nil.
func partitioned(c *Case) *results.Partition {
	for _, s := range c.Steps {
		if s.Run.Partition != nil {
			return s.Run.Partition
		}
	}
	return nil
}

// joinInts lists ns as "1, 8, 64".
func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// onlyStopped tells whether r's verdict says no more than its error, which
// the step's "failed" note already gives (a step that produced no result).
func onlyStopped(r *results.Run) bool {
	return r.Status == "failed" && len(r.VerdictReasons) == 1 && r.VerdictReasons[0] == "stopped: "+r.Error
}
