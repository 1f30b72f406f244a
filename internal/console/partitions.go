package console

import (
	"fmt"
	"io"
	"strings"

	"benchpress/internal/results"
)

// Partitions lists a merged result's partitions, one line each (nothing
// for a result that is not merged).
func Partitions(w io.Writer, r *results.Run) {
	m := r.Merged
	if m == nil {
		return
	}
	fmt.Fprintf(w, "\nmerged from %d partitions (run %s); windows within %.1f ms (allowed %.1f ms)\n", len(m.Partitions), m.RunID, m.WindowSpreadMS, m.ToleranceMS)
	fmt.Fprintln(w, "(driver CPU and peak RSS are summed over the partitions, machine busy is the busiest one's; interval p95/p99 are the partitions' largest)")
	for _, p := range m.Partitions {
		var b strings.Builder
		fmt.Fprintf(&b, "  partition %d: %d terminals", p.Index, p.Terminals)
		if p.WarehouseTo > 0 {
			fmt.Fprintf(&b, ", warehouses %d-%d", p.WarehouseFrom, p.WarehouseTo)
		}
		fmt.Fprintf(&b, ", %d transactions, %.1f tps", p.Transactions, p.TPS)
		if p.TpmC > 0 {
			fmt.Fprintf(&b, ", tpmC %.1f", p.TpmC)
		}
		fmt.Fprintf(&b, ", clock skew %+.2f ms (rtt %.2f ms)", p.ClockSkewMS, p.ClockRTTMS)
		if d := p.Driver; d != nil {
			fmt.Fprintf(&b, ", driver CPU %.2f s", d.CPUUserS+d.CPUSysS)
		}
		fmt.Fprintln(w, b.String())
	}
}
