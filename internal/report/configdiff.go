package report

import (
	"fmt"
	"sort"

	"benchpress/internal/results"
)

// scaleKeys name the configuration that sizes a run: comparing runs that
// differ in them compares different experiments.
var scaleKeys = []string{"warehouses", "terminals", "threads", "tables", "table_size", "records", "recordcount", "concurrency"}

// ConfigWarnings says, one line each, where two runs are not the same
// experiment: a different workload, target kind or scale (warehouses,
// terminals, threads, table sizes, records).
func ConfigWarnings(a, b *results.Run) []string {
	var out []string
	if a.Workload != b.Workload {
		out = append(out, fmt.Sprintf("the runs are different workloads: A is %s, B is %s", a.Workload, b.Workload))
	}
	if a.TargetKind != b.TargetKind {
		out = append(out, fmt.Sprintf("the runs are on different database kinds: A %s, B %s", a.TargetKind, b.TargetKind))
	}
	for _, k := range scaleKeys {
		va, oka := a.Config[k]
		vb, okb := b.Config[k]
		if (oka || okb) && fmt.Sprint(va) != fmt.Sprint(vb) {
			out = append(out, fmt.Sprintf("the runs differ in %s: A %v, B %v", k, show(va, oka), show(vb, okb)))
		}
	}
	return out
}

// ConfigDiff is a table of every configuration key whose value differs
// between the runs (nil when none does).
func ConfigDiff(a, b *results.Run) *Table {
	keys := map[string]bool{}
	for k := range a.Config {
		keys[k] = true
	}
	for k := range b.Config {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	t := &Table{Header: []string{"Setting", "A", "B"}, Align: "lll"}
	for _, k := range sorted {
		if k == "seed" {
			continue // differs by design
		}
		va, oka := a.Config[k]
		vb, okb := b.Config[k]
		if fmt.Sprint(va) != fmt.Sprint(vb) || oka != okb {
			t.Rows = append(t.Rows, []string{k, show(va, oka), show(vb, okb)})
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

func show(v any, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprint(v)
}
