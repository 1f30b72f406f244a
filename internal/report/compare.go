package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"benchpress/internal/results"
)

// CompareRuns is a table of key figures of two runs with the difference of
// B against A in percent.
func CompareRuns(aName, bName string, a, b *results.Run) Table {
	t := Table{Header: []string{"Figure", aName, bName, "Difference"}, Align: "lrrr"}
	// A run that measured nothing (a step refused at start) has no
	// figures: "-", never 0.00 and a -100 % difference.
	ma, mb := measured(a), measured(b)
	add := func(name string, va, vb float64, format func(float64) string) {
		diff := "-"
		if ma && mb {
			diff = signedPct(Diff(va, vb))
		}
		t.Rows = append(t.Rows, []string{name, show(format(va), ma), show(format(vb), mb), diff})
	}
	sa, sb := a.Summary, b.Summary
	if sa.TpmC > 0 || sb.TpmC > 0 {
		add("tpmC", sa.TpmC, sb.TpmC, f2)
		add("tpmTOTAL", sa.TpmTotal, sb.TpmTotal, f2)
	}
	add("TPS", sa.TPS, sb.TPS, f2)
	if sa.QPS > 0 || sb.QPS > 0 {
		add("QPS", sa.QPS, sb.QPS, f2)
	}
	add("avg ms", sa.AvgMS, sb.AvgMS, f2)
	add("p95 ms", sa.P95MS, sb.P95MS, f2)
	add("p99 ms", sa.P99MS, sb.P99MS, f2)
	add("success rate %", sa.SuccessRate, sb.SuccessRate, results.RatePct)
	add("errors", float64(sa.Errors), float64(sb.Errors), f0)
	t.Rows = append(t.Rows, []string{"status", a.Status, b.Status, ""})
	if a.Verdict != "" || b.Verdict != "" {
		t.Rows = append(t.Rows, []string{"verdict", show(a.Verdict, a.Verdict != ""), show(b.Verdict, b.Verdict != ""), ""})
	}
	return t
}

// Compare builds a comparison document of two run JSON files or two result
// directories (cases matched by ID, steps by concurrency).
func Compare(a, b string) (*Doc, error) {
	da, err := Load(a)
	if err != nil {
		return nil, err
	}
	db, err := Load(b)
	if err != nil {
		return nil, err
	}
	d := &Doc{Title: fmt.Sprintf("Comparison: A = %s, B = %s", a, b)}
	sa, fa := isFile(a)
	sb, fb := isFile(b)
	if fa && fb {
		for _, w := range ConfigWarnings(sa, sb) {
			d.p("**Warning:** " + w + ".")
		}
		for _, w := range append(verdictWarning("A", sa), verdictWarning("B", sb)...) {
			d.p("**Warning:** " + w + ".")
		}
		for _, w := range append(partitionWarning("A", sa), partitionWarning("B", sb)...) {
			d.p("**Warning:** " + w + ".")
		}
		d.table(CompareRuns("A", "B", sa, sb))
		if t := ConfigDiff(sa, sb); t != nil {
			d.h(3, "Configuration differences")
			d.table(*t)
		}
		return d, nil
	}
	if fa || fb {
		return nil, fmt.Errorf("compare: give two run files or two result directories, not one of each")
	}
	matched := 0
	for _, ca := range da.Cases {
		var cb *Case
		for _, c := range db.Cases {
			if c.ID == ca.ID {
				cb = c
			}
		}
		if cb == nil {
			d.note(true, fmt.Sprintf("case %s is only in A", ca.ID))
			continue
		}
		matched++
		d.h(2, "Case "+ca.ID)
		ca2, cb2 := *ca, *cb
		ca2.ID, cb2.ID = "A", "B"
		t, lines := named(&ca2, &cb2)
		t.Header[3] = "B vs A (overhead)"
		d.table(t)
		if len(lines) > 0 {
			d.add(List{Items: lines})
		}
	}
	for _, cb := range db.Cases {
		found := false
		for _, ca := range da.Cases {
			found = found || ca.ID == cb.ID
		}
		if !found {
			d.note(true, fmt.Sprintf("case %s is only in B", cb.ID))
		}
	}
	if matched == 0 {
		return nil, fmt.Errorf("compare: %s and %s have no case in common", a, b)
	}
	return d, nil
}

// verdictWarning names a run whose figures are not a good result (a failed
// or degraded verdict, with its reasons, or an interrupted run): none for a
// run judged ok.
func verdictWarning(name string, r *results.Run) []string {
	m := (&Step{Run: r}).notOK()
	if m == "" {
		return nil
	}
	w := map[string]string{"failed": name + " failed", "degraded": name + " is degraded", "interrupted": name + " was interrupted"}[m]
	if len(r.VerdictReasons) > 0 {
		w += ": " + strings.Join(r.VerdictReasons, "; ")
	} else if r.Error != "" {
		w += ": " + r.Error
	}
	return []string{w + "; its figures are what was measured, not a valid result"}
}

// partitionWarning names a run that is one partition's result
// (partitionNote): none for a whole or merged run.
func partitionWarning(name string, r *results.Run) []string {
	p := partitionNote(r)
	if p == "" {
		return nil
	}
	return []string{name + " is " + p}
}

// isFile returns the run when path is a file.
func isFile(path string) (*results.Run, bool) {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() || filepath.Ext(path) != ".json" {
		return nil, false
	}
	r, err := results.Read(path)
	return r, err == nil
}

// measured tells whether r holds figures: a run refused at start (status
// failed, results.Refused) has no window and no transactions.
func measured(r *results.Run) bool {
	s := r.Summary
	return s.DurationS > 0 || s.Transactions > 0 || s.TPS > 0 || s.TpmC > 0
}
