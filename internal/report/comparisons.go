package report

import (
	"fmt"
	"sort"
	"strings"
)

// groups splits cases by workload kind, keeping order.
func groups(cases []*Case) (kinds []Kind, by map[Kind][]*Case) {
	by = map[Kind][]*Case{}
	for _, c := range cases {
		k := c.Kind()
		if by[k] == nil {
			kinds = append(kinds, k)
		}
		by[k] = append(by[k], c)
	}
	return kinds, by
}

// concurrencies is the sorted union of the cases' step concurrencies.
func concurrencies(cases []*Case) []int {
	seen := map[int]bool{}
	var out []int
	for _, c := range cases {
		for _, s := range c.Steps {
			if !seen[s.Concurrency] {
				seen[s.Concurrency] = true
				out = append(out, s.Concurrency)
			}
		}
	}
	sort.Ints(out)
	return out
}

// sideBySide compares every case at each concurrency with the first case:
// value columns, then the difference of each other case in percent. A
// step whose verdict is not ok shows its figure marked (failed, degraded,
// interrupted), and so does every difference it enters.
func sideBySide(cases []*Case, label string, val func(*Step) float64) Table {
	t := Table{Header: []string{"Concurrency"}, Align: "r"}
	for _, c := range cases {
		t.Header = append(t.Header, c.ID+" "+label)
		t.Align += "r"
	}
	for _, c := range cases[1:] {
		t.Header = append(t.Header, c.ID+" vs "+cases[0].ID)
		t.Align += "r"
	}
	for _, n := range concurrencies(cases) {
		row := []string{fmt.Sprint(n)}
		steps := make([]*Step, len(cases))
		for i, c := range cases {
			s := c.StepAt(n)
			if s == nil || !s.ok() {
				// "-" is a step not in the case's ladder; one that ran and
				// failed says so, as in the named comparisons.
				cell := "-"
				if s != nil {
					cell = "- (" + absence(s) + ")"
				}
				row = append(row, cell)
				continue
			}
			steps[i] = s
			row = append(row, marked(f2(val(s)), s))
		}
		for i := range cases[1:] {
			b, o := steps[0], steps[i+1]
			if b == nil || o == nil {
				row = append(row, "-")
				continue
			}
			row = append(row, pairMarked(signedPct(Diff(val(b), val(o))), b, o))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// pairMarked is a figure computed from two steps, marked when either's
// verdict is not ok ("(not ok)"; the steps' own cells say which).
func pairMarked(v string, a, b *Step) string {
	if a.notOK() != "" || b.notOK() != "" {
		return v + " (not ok)"
	}
	return v
}

// named is one plan comparison at every concurrency either case has:
// overhead = (base - other) / base, speed-up = other / base, plus p95/p99
// changes. Steps whose verdict is not ok keep their row, marked, and stay
// out of the mean overhead (the peak is judged-ok steps' already). A
// concurrency without figures on one side (no step there, or one that
// failed or was interrupted before its window) keeps its row too, that
// side's throughput "- (not run)" or "- (failed)", the differences "-", and
// a line counts such steps (out of the mean too). A step that is one
// partition's result gets a line saying so (partitionNote).
func named(base, other *Case) (Table, []string) {
	m := MetricName(base.Kind())
	t := Table{Header: []string{"Concurrency", base.ID + " " + m, other.ID + " " + m, "Overhead", "Speed-up",
		base.ID + " p95 ms", other.ID + " p95 ms", "p95 change", base.ID + " p99 ms", other.ID + " p99 ms", "p99 change"}, Align: "rrrrrrrrrrr"}
	var sum float64
	var n, left int
	var missing, parts []string
	for _, c := range concurrencies([]*Case{base, other}) {
		bs, os := base.StepAt(c), other.StepAt(c)
		var why []string
		for _, side := range []struct {
			id string
			s  *Step
		}{{base.ID, bs}, {other.ID, os}} {
			if w := absence(side.s); w != "" {
				why = append(why, side.id+" "+w)
				continue
			}
			if p := partitionNote(side.s.Run); p != "" {
				parts = append(parts, fmt.Sprintf("%s at %d is %s", side.id, c, p))
			}
		}
		if len(why) > 0 {
			t.Rows = append(t.Rows, unmatchedRow(c, bs, os))
			missing = append(missing, fmt.Sprintf("%d (%s)", c, strings.Join(why, ", ")))
			continue
		}
		bv, ov := Throughput(bs.Run), Throughput(os.Run)
		b, o := bs.Run.Summary, os.Run.Summary
		speed := "-"
		if bv > 0 {
			speed = pairMarked(ratio(ov/bv), bs, os)
		}
		pair := func(v string) string { return pairMarked(v, bs, os) }
		t.Rows = append(t.Rows, []string{fmt.Sprint(c), marked(f2(bv), bs), marked(f2(ov), os), pair(pct(Overhead(bv, ov))), speed,
			marked(f2(b.P95MS), bs), marked(f2(o.P95MS), os), pair(signedPct(Diff(b.P95MS, o.P95MS))),
			marked(f2(b.P99MS), bs), marked(f2(o.P99MS), os), pair(signedPct(Diff(b.P99MS, o.P99MS)))})
		if bs.notOK() != "" || os.notOK() != "" {
			left++
			continue
		}
		sum += Overhead(bv, ov)
		n++
	}
	var lines []string
	bp, op := base.Peak(), other.Peak()
	if bp != nil && op != nil {
		bv, ov := Throughput(bp.Run), Throughput(op.Run)
		lines = append(lines, fmt.Sprintf("Peak %s: %s %s at %d vs %s %s at %d: overhead **%s**, speed-up %s.",
			m, base.ID, f2(bv), bp.Concurrency, other.ID, f2(ov), op.Concurrency, pct(Overhead(bv, ov)), ratio(safeDiv(ov, bv))))
	}
	switch {
	case n > 0 && left > 0:
		lines = append(lines, fmt.Sprintf("Mean overhead over %d common step(s) judged ok: %s (%d step(s) whose verdict is not ok left out).", n, pct(sum/float64(n)), left))
	case n > 0:
		lines = append(lines, fmt.Sprintf("Mean overhead over %d common steps: %s.", n, pct(sum/float64(n))))
	case left > 0:
		lines = append(lines, fmt.Sprintf("No mean overhead: none of the %d common step(s) is judged ok on both sides.", left))
	}
	if len(missing) > 0 {
		lines = append(lines, fmt.Sprintf("**%d step(s) without figures on one side**, not compared and left out of the mean: %s.", len(missing), strings.Join(missing, "; ")))
	}
	for _, p := range parts {
		lines = append(lines, "**"+p+"**.")
	}
	return t, lines
}

// absence says why a step has no figures to compare: "not run" (no step),
// "failed" or "interrupted" (it ended before its window); "" when it has
// them.
func absence(s *Step) string {
	switch {
	case s == nil:
		return "not run"
	case s.ok():
		return ""
	case s.Run.Status == "interrupted":
		return "interrupted"
	}
	return "failed"
}

// unmatchedRow is named's row for a concurrency without figures on one
// side: each side's figures where it has them (marked as in a compared
// row), "- (<absence>)" as the throughput of a side without, and "-" for
// every difference.
func unmatchedRow(c int, bs, os *Step) []string {
	cells := func(s *Step) (tput, p95, p99 string) {
		if w := absence(s); w != "" {
			return "- (" + w + ")", "-", "-"
		}
		sum := s.Run.Summary
		return marked(f2(Throughput(s.Run)), s), marked(f2(sum.P95MS), s), marked(f2(sum.P99MS), s)
	}
	bt, b95, b99 := cells(bs)
	ot, o95, o99 := cells(os)
	return []string{fmt.Sprint(c), bt, ot, "-", "-", b95, o95, "-", b99, o99, "-"}
}

func safeDiv(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// comparisonSection adds the side-by-side tables and the plan's comparisons.
func comparisonSection(d *Doc, ds *Dataset) {
	kinds, by := groups(ds.Cases)
	var multi []Kind
	for _, k := range kinds {
		if len(by[k]) > 1 {
			multi = append(multi, k)
		}
	}
	if len(multi) == 0 && len(ds.Compare) == 0 {
		return
	}
	d.h(2, "Comparisons")
	for _, k := range multi {
		cs := by[k]
		m := MetricName(k)
		d.h(3, fmt.Sprintf("%s side by side (%s)", m, kindTitle(k)))
		d.p(fmt.Sprintf("Each case at every concurrency; the last columns give the difference to %s in percent.", cs[0].ID))
		d.table(sideBySide(cs, m, func(s *Step) float64 { return Throughput(s.Run) }))
		d.h(4, "p95 latency (ms) side by side")
		d.table(sideBySide(cs, "p95", func(s *Step) float64 { return s.Run.Summary.P95MS }))
	}
	ids := map[string]*Case{}
	for _, c := range ds.Cases {
		ids[c.ID] = c
	}
	for _, cmp := range ds.Compare {
		base, other := ids[cmp.Base], ids[cmp.Other]
		if base == nil || other == nil {
			continue
		}
		d.h(3, "Comparison: "+cmp.Name)
		d.p(fmt.Sprintf("Base **%s**, other **%s**. Overhead = (base − other) / base; speed-up = other / base.", cmp.Base, cmp.Other))
		if base.Kind() != other.Kind() {
			d.note(true, fmt.Sprintf("%s runs %s and %s runs %s: their throughput figures are not the same metric.", base.ID, base.Workload, other.ID, other.Workload))
		}
		t, lines := named(base, other)
		d.table(t)
		if len(lines) > 0 {
			d.add(List{Items: lines})
		}
	}
}
