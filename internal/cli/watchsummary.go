package cli

import (
	"fmt"
	"io"

	"benchpress/internal/monitor"
	"benchpress/internal/results"
)

// printWatch prints the watched figures of a run after its summary: one
// row per host (seed 000's columns), the busy processes with TPS per CPU
// core (seed 001), the database commit check and size, and the notes.
func printWatch(w io.Writer, run *results.Run) {
	if run.Watch == nil {
		for _, n := range run.Notes {
			fmt.Fprintln(w, "note:", n)
		}
		return
	}
	wt := run.Watch
	if len(wt.Hosts) > 0 {
		fmt.Fprintln(w, "\nservers (mean over the measurement window)")
		t := table{head: []string{"host", "role", "CPU %", "NIC rx KB/s", "NIC tx KB/s", "lo rx KB/s", "lo tx KB/s", "disk r KB/s", "disk w KB/s", "util %"}}
		for _, h := range wt.Hosts {
			if h.Samples == 0 {
				t.add(h.Name, h.Role, "-", "-", "-", "-", "-", "-", "-", "-")
				continue
			}
			t.add(h.Name, h.Role, f1(h.CPUPct), f0k(h.NetRxBps), f0k(h.NetTxBps), f0k(h.LoopbackRxBps), f0k(h.LoopbackTxBps),
				f0k(h.DiskReadBps), f0k(h.DiskWriteBps), f1(h.DiskUtilPct))
		}
		t.write(w)
	}
	var busy []results.WatchedProcess
	for _, p := range wt.Processes {
		if p.CPUCores >= 0.05 {
			busy = append(busy, p)
		}
	}
	if len(busy) > 0 {
		fmt.Fprintln(w, "\nprocesses (CPU % of one core)")
		t := table{head: []string{"host", "process", "procs", "CPU %", "RSS", "TPS per CPU core"}}
		for _, p := range busy {
			t.add(p.Host, p.Name, fmt.Sprint(p.Procs), f1(p.CPUCores*100), monitor.Bytes(int64(p.RSSBytes)), f1(run.Summary.TPS/p.CPUCores))
		}
		t.write(w)
	}
	if db := wt.Database; db != nil {
		switch {
		case db.Error != "":
			fmt.Fprintln(w, "\ndatabase counters: "+db.Error)
		default:
			fmt.Fprintf(w, "\ndatabase commits: %s (%s)\n", db.CommitCheck, db.CommitNote)
			if db.Size != nil {
				fmt.Fprintln(w, monitor.SizeLine(db.Size))
			}
		}
	}
	for _, n := range run.Notes {
		fmt.Fprintln(w, "note:", n)
	}
}

// f0k formats bytes/s as whole KB/s.
func f0k(bps float64) string { return fmt.Sprintf("%.0f", bps/1024) }
