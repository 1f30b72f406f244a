package console

import (
	"fmt"
	"io"
	"strings"

	"benchpress/internal/results"
)

// Title writes the blank line and the "benchpress <workload> — <target>
// (<server version>)" title every run summary starts with.
func Title(w io.Writer, run *results.Run) {
	fmt.Fprintln(w)
	title := fmt.Sprintf("benchpress %s — %s", run.Workload, run.Target)
	if run.ServerVersion != "" {
		title += " (" + run.ServerVersion + ")"
	}
	fmt.Fprintln(w, title)
}

// Status is "  [INTERRUPTED]" (or another non-ok status), "" when ok.
func Status(run *results.Run) string {
	if run.Status != "ok" {
		return "  [" + strings.ToUpper(run.Status) + "]"
	}
	return ""
}

// ErrClasses renders error counts by class ("  deadlock 3, other 1"), or "".
func ErrClasses(m map[string]int64) string {
	if len(m) == 0 {
		return ""
	}
	keys := SortedKeys(m)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return "  " + strings.Join(parts, ", ")
}

// DriverLine reports the driver's own CPU and the driver-bound warning (the
// sysbench and YCSB reports; Summary has its own, with the machine load).
func DriverLine(w io.Writer, run *results.Run) { writeDriver(w, run.Driver, false) }

// writeDriver writes the driver's figures (with the machine's load when
// machine is set) and how its terminals waited for replies.
func writeDriver(w io.Writer, d *results.Driver, machine bool) {
	if d == nil {
		return
	}
	fmt.Fprintf(w, "\ndriver CPU %.2f s (user %.2f, sys %.2f), %.0f us per transaction", d.CPUUserS+d.CPUSysS, d.CPUUserS, d.CPUSysS, d.CPUPerTxnUS)
	if d.CPUPerStmtUS > 0 {
		fmt.Fprintf(w, ", %.1f us per statement", d.CPUPerStmtUS)
	}
	fmt.Fprintf(w, "; %s; peak RSS %.0f MB", gcShare(d), d.PeakRSSMB)
	if machine {
		fmt.Fprintf(w, "; machine %.0f %% busy (%d cores)", d.MachineBusyPct, d.Cores)
	}
	if d.SocketIO != "" {
		fmt.Fprintf(w, "; %s sockets, GOMAXPROCS %d", d.SocketIO, d.GoMaxProcs)
		if d.YieldMS > 0 {
			fmt.Fprintf(w, ", terminals yield every %g ms", d.YieldMS)
		}
		if d.YieldBeforeWait {
			fmt.Fprint(w, ", reads yield once before they wait")
		}
		if d.ParkLongWaitsMS > 0 {
			fmt.Fprintf(w, ", waits over %g ms park in the poller", d.ParkLongWaitsMS)
		}
	}
	fmt.Fprintln(w)
	if d.DriverBound {
		fmt.Fprintf(w, "WARNING %s\n", d.DriverBoundNote)
	}
}

// gcShare renders the GC's share of the driver's CPU. The runtime accounts
// it in processor (P) time; with more Ps than cores (blocking sockets run
// GOMAXPROCS = terminals + 4) a P's time is not a core's, and terminals
// blocked in a read count as busy, so the figure is then the share of the
// Ps' time, said as such: a healthy run reads near 0 and a stalled one
// (terminals waiting, a collection in progress) can read tens of percent.
func gcShare(d *results.Driver) string {
	if d.GCCycles != nil && *d.GCCycles == 0 {
		return "GC: no collection ended in the window"
	}
	if d.Cores > 0 && d.GoMaxProcs > d.Cores {
		return fmt.Sprintf("GC %.1f %% of the runtime's processor time (more Ps than cores: not a share of CPU time)", d.GCSharePct)
	}
	return fmt.Sprintf("GC %.1f %% of it", d.GCSharePct)
}
