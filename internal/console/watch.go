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
			nk := func(bps float64) string {
				if h.NoNet {
					return "-"
				}
				return f0k(bps)
			}
			dk, util := f0k, F1(h.DiskUtilPct)
			if h.NoDisk {
				dk, util = func(float64) string { return "-" }, "-"
			}
			t.Add(h.Name, h.Role, F1(h.CPUPct), nk(h.NetRxBps), nk(h.NetTxBps), nk(h.LoopbackRxBps), nk(h.LoopbackTxBps),
				dk(h.DiskReadBps), dk(h.DiskWriteBps), util)
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
