package monitor

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"benchpress/internal/results"
)

// Summary condenses the readings inside the window [from, to] into the
// saved figures, and returns the notes the run should carry (a host or
// process source that stopped answering). An interval between two
// readings counts when it lies inside the window (by its midpoint when
// none does); an interval that touches a failed reading is a gap, not a
// zero.
func (w *Watcher) Summary(from, to time.Time) (*results.Watch, []string) {
	out := &results.Watch{IntervalS: w.cfg.Interval.Seconds()}
	var notes []string
	for _, hw := range w.hosts {
		h, procs := summarizeHost(hw.spec, hw.snapshot(), from, to)
		out.Hosts = append(out.Hosts, h)
		out.Processes = append(out.Processes, procs...)
		if n := stealNote(h, to.Sub(from)); n != "" {
			notes = append(notes, n)
		}
		if n := answerNote(h, to.Sub(from)); n != "" {
			notes = append(notes, n)
		}
		if h.Samples == 0 && h.Error != "" {
			notes = append(notes, fmt.Sprintf("watched host %s gave no figures: %s", h.Name, firstLine(h.Error)))
		} else if len(h.Gaps) > 0 {
			var gone float64
			for _, g := range h.Gaps {
				gone += g.ToS - g.FromS
			}
			notes = append(notes, fmt.Sprintf("watched host %s did not answer for %.0f s of the window (%d gap(s), first at %.0f s: %s); its figures cover the rest",
				h.Name, gone, len(h.Gaps), h.Gaps[0].FromS, firstLine(h.Gaps[0].Error)))
		}
	}
	return out, notes
}

// stealNoteAt is the mean steal (percent of the host's CPU time) from
// which a run carries a note: 0.25 % is 50 ms of one core's time per 10 s
// of a 2-core machine, about what a single stall visible in the maximum
// latency takes (docs/benchmarks.md, 2026-11-26).
const stealNoteAt = 0.25

// stealNote says when the hypervisor took a watched host's cores for long
// enough to show in the latencies: a virtual core it takes stops whatever
// ran on it (a terminal, a server process, a lock holder) for the length
// of the steal, and the scheduler cannot move the task that was running.
func stealNote(h results.WatchedHost, window time.Duration) string {
	if h.StealPct < stealNoteAt {
		return ""
	}
	stolen := h.StealPct / 100 * float64(max(h.Cores, 1)) * window.Seconds()
	return fmt.Sprintf("watched host %s: the hypervisor took %.2f s of its CPU time (steal %.2f %% of the window, up to %.1f %% in one interval): latencies include stalls of the virtual machine, not of the database or the driver",
		h.Name, stolen, h.StealPct, h.StealMaxPct)
}

// answerNoteAt is the share of the window (its rates' possible error) from
// which a slow exporter's answers are noted.
const answerNoteAt = 0.05

// answerNote says when a watched host's exporters answered so slowly that
// the instants its readings are dated to (the middle of each request) make
// its rates over the window approximate: each end of the span is known to
// within half the answer time, so a rate to within AnswerMaxMS over the
// window's length.
func answerNote(h results.WatchedHost, window time.Duration) string {
	if window <= 0 || h.AnswerMaxMS/1000 < answerNoteAt*window.Seconds() {
		return ""
	}
	return fmt.Sprintf("watched host %s: its exporter took up to %.1f s to answer, so each reading's instant is known to within %.1f s and its rates over the %.0f s window to within about %.0f %%",
		h.Name, h.AnswerMaxMS/1000, h.AnswerMaxMS/2000, window.Seconds(), 100*h.AnswerMaxMS/1000/window.Seconds())
}

// summarizeHost is Summary for one host.
func summarizeHost(spec HostSpec, rs []reading, from, to time.Time) (results.WatchedHost, []results.WatchedProcess) {
	h := results.WatchedHost{Name: spec.Name, Role: spec.Role, Source: "local"}
	if !spec.Local() {
		// An exporter behind basic auth (http://user:pw@host:9100/metrics)
		// is saved and reported without its password.
		us := make([]string, len(spec.URLs))
		for i, u := range spec.URLs {
			us[i] = results.RedactHTTP(u)
		}
		h.Source = strings.Join(us, " ")
	}
	procSrc := "/proc"
	if !spec.Local() {
		procSrc = h.Source
	}
	// An interval counts when it lies inside the window: one that
	// straddles an edge averages in the warm-up or the idle after the run
	// (a process-exporter reading smaps of hundreds of backends answers
	// every 2-3 s; TestSummarizeHostEdges: a host busy through the window
	// read 83 %). Only when no interval lies wholly inside (a window
	// shorter than the sampling) does one count by its midpoint.
	inside := func(a, b time.Time) bool { return !a.Before(from) && !b.After(to) }
	midIn := func(a, b time.Time) bool {
		mid := a.Add(b.Sub(a) / 2)
		return !mid.Before(from) && !mid.After(to)
	}
	inWindow := midIn
	for i := 1; i < len(rs); i++ {
		if inside(rs[i-1].at, rs[i].at) {
			inWindow = inside
			break
		}
	}
	rel := func(t time.Time) float64 { return round1(t.Sub(from).Seconds()) }

	var wsum float64 // seconds of host intervals summed
	net := map[string]results.IORate{}
	disk := map[string]results.IORate{}
	type procAcc struct {
		cpuS, secs, maxCores float64
		rss                  uint64
		procs, n             int
		series               []results.ProcPoint
	}
	procs := map[string]*procAcc{}
	var gap *results.Gap
	closeGap := func(t time.Time) {
		if gap != nil {
			gap.ToS = max(gap.FromS, rel(t))
			h.Gaps = append(h.Gaps, *gap)
			gap = nil
		}
	}
	for i := range rs {
		r := rs[i]
		if r.err != nil && h.Error == "" {
			h.Error = r.err.Error()
		}
		if i == 0 {
			continue
		}
		prev := rs[i-1]
		if !inWindow(prev.at, r.at) {
			continue
		}
		if r.err != nil || prev.err != nil {
			if gap == nil {
				gap = &results.Gap{FromS: max(0, rel(prev.at))}
				if r.err != nil {
					gap.Error = r.err.Error()
				} else {
					gap.Error = prev.err.Error()
				}
			}
			if r.err == nil {
				closeGap(r.at)
			}
			continue
		}
		dt := r.at.Sub(prev.at).Seconds()
		if dt <= 0 {
			continue
		}
		if prev.counters != nil && r.counters != nil {
			s := rates(*prev.counters, *r.counters)
			h.Samples++
			wsum += dt
			h.CPUPct += s.CPUPct * dt
			h.CPUMaxPct = max(h.CPUMaxPct, s.CPUPct)
			h.UserPct += s.UserPct * dt
			h.SysPct += s.SysPct * dt
			h.IowaitPct += s.IowaitPct * dt
			h.StealPct += s.StealPct * dt
			h.StealMaxPct = max(h.StealMaxPct, math.Round(s.StealPct*100)/100)
			h.Cores = max(h.Cores, s.Cores)
			h.MemUsedBytes = max(h.MemUsedBytes, s.MemUsedBytes)
			h.MemTotalBytes = s.MemTotalBytes
			var rx, tx float64
			for name, n := range s.Net {
				if name == "lo" && len(s.Net) == 1 {
					h.LoopbackRxBps += n.RxBps * dt
					h.LoopbackTxBps += n.TxBps * dt
					continue
				}
				a := net[name]
				a.InBps += n.RxBps * dt
				a.OutBps += n.TxBps * dt
				net[name] = a
				if stackedNIC.MatchString(name) {
					continue // its traffic crosses another interface too, counted there
				}
				rx += n.RxBps
				tx += n.TxBps
			}
			if s.Loopback != nil {
				h.LoopbackRxBps += s.Loopback.RxBps * dt
				h.LoopbackTxBps += s.Loopback.TxBps * dt
			}
			h.NetRxBps += rx * dt
			h.NetTxBps += tx * dt
			for name, d := range s.Disk {
				a := disk[name]
				a.InBps += d.ReadBps * dt
				a.OutBps += d.WriteBps * dt
				a.UtilPct += d.UtilPct * dt
				disk[name] = a
				if stackedDisk.MatchString(name) {
					continue // its I/O is on the disks beneath, counted there
				}
				h.DiskReadBps += d.ReadBps * dt
				h.DiskWriteBps += d.WriteBps * dt
			}
			h.Series = append(h.Series, results.HostPoint{T: rel(r.at), CPUPct: round1(s.CPUPct), NetRxBps: math.Round(rx), NetTxBps: math.Round(tx)})
		}
		h.AnswerMaxMS = max(h.AnswerMaxMS, math.Round(float64(max(r.answer, prev.answer).Microseconds())/100)/10)
		pdt := r.procsTime().Sub(prev.procsTime()).Seconds()
		if pdt <= 0 {
			continue
		}
		for name, g := range r.procs {
			pg, ok := prev.procs[name]
			if !ok {
				continue
			}
			a := procs[name]
			if a == nil {
				a = &procAcc{}
				procs[name] = a
			}
			d := max(0, g.CPUS-pg.CPUS)
			a.cpuS += d
			a.secs += pdt
			a.maxCores = max(a.maxCores, d/pdt)
			a.series = append(a.series, results.ProcPoint{T: round3(r.procsTime().Sub(from).Seconds()), DurS: round3(pdt), Cores: round3(d / pdt)})
			a.rss = max(a.rss, g.RSSBytes)
			a.procs = max(a.procs, g.Procs)
			a.n++
		}
	}
	if gap != nil {
		closeGap(to)
	}
	if wsum > 0 {
		h.StealPct = math.Round(h.StealPct/wsum*100) / 100
		for _, p := range []*float64{&h.CPUPct, &h.UserPct, &h.SysPct, &h.IowaitPct, &h.NetRxBps, &h.NetTxBps,
			&h.LoopbackRxBps, &h.LoopbackTxBps, &h.DiskReadBps, &h.DiskWriteBps} {
			*p = round1(*p / wsum)
		}
		h.Net = scaleRates(net, wsum)
		h.Disk = scaleRates(disk, wsum)
		for _, d := range h.Disk {
			h.DiskUtilPct = max(h.DiskUtilPct, d.UtilPct)
		}
	}
	names := make([]string, 0, len(procs))
	for n := range procs {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []results.WatchedProcess
	for _, n := range names {
		a := procs[n]
		p := results.WatchedProcess{Host: spec.Name, Name: n, Source: procSrc, Procs: a.procs,
			CPUMaxCores: round3(a.maxCores), RSSBytes: a.rss, Samples: a.n, Gaps: h.Gaps, Series: a.series}
		if a.secs > 0 {
			p.CPUCores = round3(a.cpuS / a.secs)
		}
		out = append(out, p)
	}
	return h, out
}

func scaleRates(m map[string]results.IORate, secs float64) map[string]results.IORate {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]results.IORate, len(m))
	for k, v := range m {
		out[k] = results.IORate{InBps: round1(v.InBps / secs), OutBps: round1(v.OutBps / secs), UtilPct: round1(v.UtilPct / secs)}
	}
	return out
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
