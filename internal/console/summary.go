package console

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"benchpress/internal/results"
	"benchpress/internal/target"
)

// Summary writes the end-of-run summary in the shape of the seed
// reports: headline figures, then one row per transaction type.
func Summary(w io.Writer, r *results.Run) {
	s := r.Summary
	fmt.Fprintln(w)
	title := fmt.Sprintf("benchpress %s — %s", r.Workload, r.Target)
	if r.ServerVersion != "" {
		title += " (" + r.ServerVersion + ")"
	}
	fmt.Fprintln(w, title)
	conc := ""
	if v, ok := r.Config["terminals"]; ok {
		conc = fmt.Sprintf(", %v terminals", v)
	} else if v, ok := r.Config["threads"]; ok {
		conc = fmt.Sprintf(", %v threads", v)
	}
	if p := r.Partition; p != nil {
		// The figures below are this process's share, not the run's.
		conc += fmt.Sprintf(" (partition %d/%d: %d of them, its share of the figures; merge the partitions for the run's)", p.Index, p.Count, p.Terminals)
	}
	status := ""
	if r.Status != "ok" {
		status = "  [" + strings.ToUpper(r.Status) + "]"
	}
	fmt.Fprintf(w, "measured %.1f s after %.0f s warm-up%s (started in %.1f s)%s\n\n", s.DurationS, r.WarmupS, conc, r.ConnectS, status)

	if r.Workload == "tpcc" {
		fmt.Fprintf(w, "tpmC %s%s   tpmTOTAL %s   TPS %s   success %s %%\n", F1(s.TpmC), noWaitNote(r), F1(s.TpmTotal), F1(s.TPS), results.RatePct(s.SuccessRate))
		fmt.Fprintf(w, "New-Order committed %s, rolled back %s (%.2f %%)", FI(s.NewOrderCommitted), FI(s.NewOrderRolledBack), s.NewOrderRollbackPct)
		if s.Efficiency > 0 {
			fmt.Fprintf(w, "   efficiency %.1f %% (%s)", s.Efficiency, s.EfficiencyNote)
		} else if s.EfficiencyNote != "" {
			fmt.Fprintf(w, "   %s", s.EfficiencyNote)
		}
		fmt.Fprintln(w)
	} else {
		line := fmt.Sprintf("TPS %s", F2(s.TPS))
		if s.QPS > 0 {
			line += fmt.Sprintf("   QPS %s", F2(s.QPS))
		}
		fmt.Fprintf(w, "%s   success %s %%\n", line, results.RatePct(s.SuccessRate))
	}
	fmt.Fprintln(w, ErrorsLine(r))
	fmt.Fprintln(w)

	t := &Table{Head: []string{"operation", "count", "per min", "per sec", "avg ms", "p50", "p90", "p95", "p99", "p99.9", "max", "errors"}}
	for _, o := range r.Ops {
		if o.Count == 0 && o.Errors == 0 {
			continue
		}
		l := o.Latency
		t.Add(o.Name, FI(o.Count), F1(o.PerMin), F1(o.PerSec), F2(l.Avg), F2(l.P50), F2(l.P90), F2(l.P95), F2(l.P99), F2(l.P999), F2(l.Max), FI(o.Errors))
	}
	t.Write(w)

	if len(r.Endpoints) > 1 {
		fmt.Fprint(w, "\nconnections per endpoint:")
		for _, k := range SortedKeys(r.Endpoints) {
			fmt.Fprintf(w, "  %s %d", k, r.Endpoints[k])
		}
		fmt.Fprintln(w)
	}
	if r.TargetKind == string(target.MySQL) && len(r.Clients) > 0 {
		fmt.Fprint(w, "\nMySQL client:")
		for _, k := range SortedKeys(r.Clients) {
			fmt.Fprintf(w, "  %s (%d sessions)", k, r.Clients[k])
		}
		fmt.Fprintln(w)
	}
	if len(r.Checks) > 0 {
		fmt.Fprintln(w)
		Checks(w, r.Checks)
	}
	TerminalsLine(w, r)
	writeDriver(w, r.Driver, true)
}

// Checks writes check results, one line each.
func Checks(w io.Writer, checks []results.Check) {
	for _, c := range checks {
		mark := "PASS"
		switch {
		case c.NotJudged:
			mark = "N/A "
		case !c.Passed:
			mark = "FAIL"
		}
		line := fmt.Sprintf("%s  %s", mark, c.Name)
		if c.Detail != "" {
			line += " — " + c.Detail
		}
		if c.TookS > 0 {
			line += fmt.Sprintf(" (%.2fs)", c.TookS)
		}
		fmt.Fprintln(w, line)
	}
}

func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ErrorsLine is the summary's error line: failed transactions and retried
// attempts, each with its classes, then reconnects ("errors 7 (lock_timeout
// 1, other 6)   retries 1,245 (deadlock 40, lock_timeout 1205)   reconnects
// 0"). Every failed attempt is in one of the two counts. All are the
// window's; transactions of the warm-up that failed and sessions
// re-opened after a loss in the warm-up follow ("(+5 started in the
// warm-up)", "(4 after losses in the warm-up)"), so that a troubled start
// does not hide behind the window's zeros.
func ErrorsLine(r *results.Run) string {
	s := &r.Summary
	warmErr, warmConn := "", ""
	if r.WarmupErrors > 0 {
		warmErr = fmt.Sprintf(" (+%s started in the warm-up)", FI(r.WarmupErrors))
	}
	if r.WarmupReconnects > 0 {
		warmConn = fmt.Sprintf(" (%s after losses in the warm-up)", FI(r.WarmupReconnects))
	}
	return fmt.Sprintf("errors %s%s%s   retries %s%s   reconnects %s%s",
		FI(s.Errors), classesIn(r.ErrorsByClass), warmErr, FI(s.Retries), classesIn(r.RetriesByClass), FI(r.Reconnects), warmConn)
}

// classesIn renders counts by class in parentheses (" (deadlock 3, other
// 1)"), or "" when there are none.
func classesIn(m map[string]int64) string {
	var parts []string
	for _, k := range SortedKeys(m) {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
