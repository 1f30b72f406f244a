package console

import (
	"fmt"
	"io"
	"strings"

	"benchpress/internal/results"
)

// PrintWatch prints the watched figures of a run after its summary: one
// row per host (seed 000's columns), the busy processes with TPS per CPU
// core (seed 001), the database commit check and size, and the notes.
func PrintWatch(w io.Writer, run *results.Run) {
	if run.Watch == nil {
		for _, n := range run.Notes {
			fmt.Fprintln(w, "note:", n)
		}
		return
	}
	wt := run.Watch
	if len(wt.Hosts) > 0 {
		fmt.Fprintln(w, "\nservers (mean over the measurement window)")
		t := Table{Head: []string{"host", "role", "CPU %", "NIC rx KB/s", "NIC tx KB/s", "lo rx KB/s", "lo tx KB/s", "disk r KB/s", "disk w KB/s", "util %"}}
		for _, h := range wt.Hosts {
			if h.Samples == 0 {
				t.Add(h.Name, h.Role, "-", "-", "-", "-", "-", "-", "-", "-")
				continue
			}
			t.Add(h.Name, h.Role, F1(h.CPUPct), f0k(h.NetRxBps), f0k(h.NetTxBps), f0k(h.LoopbackRxBps), f0k(h.LoopbackTxBps),
				f0k(h.DiskReadBps), f0k(h.DiskWriteBps), F1(h.DiskUtilPct))
		}
		t.Write(w)
	}
	var busy []results.WatchedProcess
	for _, p := range wt.Processes {
		if p.CPUCores >= 0.05 {
			busy = append(busy, p)
		}
	}
	if len(busy) > 0 {
		fmt.Fprintln(w, "\nprocesses (CPU % of one core)")
		t := Table{Head: []string{"host", "process", "procs", "CPU %", "RSS", "TPS per CPU core"}}
		for _, p := range busy {
			t.Add(p.Host, p.Name, fmt.Sprint(p.Procs), F1(p.CPUCores*100), results.HumanBytes(int64(p.RSSBytes)), F1(run.Summary.TPS/p.CPUCores))
		}
		t.Write(w)
	}
	if db := wt.Database; db != nil {
		switch {
		case db.Error != "":
			// The watcher's errors name the counters already.
			fmt.Fprintln(w, "\ndatabase counters: "+strings.TrimPrefix(db.Error, "database counters: "))
		default:
			fmt.Fprintf(w, "\ndatabase commits: %s (%s)\n", db.CommitCheck, db.CommitNote)
			if db.Size != nil {
				fmt.Fprintln(w, db.Size.Line())
			}
		}
	}
	for _, n := range run.Notes {
		fmt.Fprintln(w, "note:", n)
	}
}

// f0k formats bytes/s as whole KB/s.
func f0k(bps float64) string { return fmt.Sprintf("%.0f", bps/1024) }
