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
		if h.Resets > 0 {
			notes = append(notes, fmt.Sprintf("watched host %s: %d interval(s) left out of its figures because its counters went back (a reboot, a restarted exporter)", h.Name, h.Resets))
		}
		resets := 0
		for _, p := range procs {
			resets += p.Resets
		}
		if resets > 0 {
			notes = append(notes, fmt.Sprintf("watched host %s: %d process-group interval(s) left out because a group's counter went back (a restarted process-exporter, a group whose processes exited)", h.Name, resets))
		}
		if h.ProcessError != "" {
			// The process page failed where the host's did not.
			if len(procs) == 0 {
				notes = append(notes, fmt.Sprintf("watched host %s: no process figures: %s", h.Name, firstLine(h.ProcessError)))
			} else {
				for _, p := range procs {
					if len(p.Gaps) > 0 {
						notes = append(notes, fmt.Sprintf("watched host %s: its process figures have %d gap(s), first at %.0f s: %s", h.Name, len(p.Gaps), p.Gaps[0].FromS, firstLine(p.Gaps[0].Error)))
						break
					}
				}
			}
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
	// The host's intervals are chosen on its node page's instants, the
	// processes' on their own page's (process-exporter answers later: by
	// the node page's instants its last interval would run past the
	// window's end into the idle after the run and read low).
	hostAt := func(r *reading) time.Time { return r.at }
	procAt := func(r *reading) time.Time { return r.procsTime() }
	windowOf := func(at func(*reading) time.Time) func(a, b time.Time) bool {
		for i := 1; i < len(rs); i++ {
			if inside(at(&rs[i-1]), at(&rs[i])) {
				return inside
			}
		}
		return midIn
	}
	rel := func(t time.Time) float64 { return round1(t.Sub(from).Seconds()) }

	var wsum, netW, diskW float64 // seconds of host intervals summed (all; with NIC figures; with disk figures)
	net := map[string]results.IORate{}
	disk := map[string]results.IORate{}
	type procAcc struct {
		cpuS, secs, maxCores float64
		rss                  uint64
		procs, n, resets     int
		series               []results.ProcPoint
	}
	procs := map[string]*procAcc{}
	// gaps collects the stretches in which a reading failed for one kind
	// of figure (failed says whether a reading failed for it).
	gaps := func(inWindow func(a, b time.Time) bool, at func(*reading) time.Time, failed func(*reading) error) []results.Gap {
		var out []results.Gap
		var gap *results.Gap
		for i := 1; i < len(rs); i++ {
			prev, r := &rs[i-1], &rs[i]
			if !inWindow(at(prev), at(r)) && !(failed(r) != nil && !at(prev).After(to) && at(r).After(to)) {
				continue
			}
			pe, re := failed(prev), failed(r)
			if pe == nil && re == nil {
				continue
			}
			if gap == nil {
				gap = &results.Gap{FromS: max(0, rel(at(prev)))}
				if re != nil {
					gap.Error = re.Error()
				} else {
					gap.Error = pe.Error()
				}
			}
			if re == nil {
				gap.ToS = max(gap.FromS, rel(at(r)))
				out = append(out, *gap)
				gap = nil
			}
		}
		if gap != nil {
			gap.ToS = max(gap.FromS, rel(to))
			out = append(out, *gap)
		}
		return out
	}
	hostFailed := func(r *reading) error { return r.err }
	procsFailed := func(r *reading) error {
		if r.procs != nil {
			return nil
		}
		if r.procsErr != nil {
			return r.procsErr
		}
		return r.err
	}
	for i := range rs {
		if rs[i].err != nil && h.Error == "" {
			h.Error = rs[i].err.Error()
		}
	}
	inWindow := windowOf(hostAt)
	h.Gaps = gaps(inWindow, hostAt, hostFailed)
	for i := 1; i < len(rs); i++ {
		prev, r := rs[i-1], rs[i]
		if !inWindow(prev.at, r.at) || r.err != nil || prev.err != nil {
			continue
		}
		dt := r.at.Sub(prev.at).Seconds()
		if dt <= 0 {
			continue
		}
		h.AnswerMaxMS = max(h.AnswerMaxMS, math.Round(float64(max(r.answer, prev.answer).Microseconds())/100)/10)
		if prev.counters == nil || r.counters == nil {
			continue
		}
		if r.counters.CPU.Total() < prev.counters.CPU.Total() {
			// The host's counters went back (a reboot, a restarted
			// exporter in a container): not a zero-rate interval.
			h.Resets++
			continue
		}
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
		if len(s.Net) > 0 || s.Loopback != nil {
			// A reading without the network family (a collector that
			// failed once, or disabled) leaves the NIC means alone.
			netW += dt
		}
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
		if len(s.Disk) > 0 {
			diskW += dt
		}
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
	procIn := windowOf(procAt)
	procGaps := gaps(procIn, procAt, procsFailed)
	for i := 1; i < len(rs); i++ {
		prev, r := &rs[i-1], &rs[i]
		if r.procsErr != nil && h.ProcessError == "" && procIn(procAt(prev), procAt(r)) {
			h.ProcessError = r.procsErr.Error()
		}
		if r.procs == nil || prev.procs == nil || !procIn(prev.procsTime(), r.procsTime()) {
			continue
		}
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
			if g.CPUS < pg.CPUS {
				// The group's counter went back (process-exporter
				// restarted, the group's processes replaced): the
				// interval is unknown, not idle.
				a.resets++
				continue
			}
			d := g.CPUS - pg.CPUS
			a.cpuS += d
			a.secs += pdt
			a.maxCores = max(a.maxCores, d/pdt)
			a.series = append(a.series, results.ProcPoint{T: round3(r.procsTime().Sub(from).Seconds()), DurS: round3(pdt), Cores: round3(d / pdt)})
			a.rss = max(a.rss, g.RSSBytes)
			a.procs = max(a.procs, g.Procs)
			a.n++
		}
	}
	if wsum > 0 {
		h.StealPct = math.Round(h.StealPct/wsum*100) / 100
		for _, p := range []*float64{&h.CPUPct, &h.UserPct, &h.SysPct, &h.IowaitPct} {
			*p = round1(*p / wsum)
		}
		for _, p := range []*float64{&h.NetRxBps, &h.NetTxBps, &h.LoopbackRxBps, &h.LoopbackTxBps} {
			if netW > 0 {
				*p = round1(*p / netW)
			}
		}
		for _, p := range []*float64{&h.DiskReadBps, &h.DiskWriteBps} {
			if diskW > 0 {
				*p = round1(*p / diskW)
			}
		}
		h.NoNet = netW == 0
		h.NoDisk = diskW == 0
		h.Net = scaleRates(net, netW)
		h.Disk = scaleRates(disk, diskW)
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
			CPUMaxCores: round3(a.maxCores), RSSBytes: a.rss, Samples: a.n, Gaps: procGaps, Series: a.series}
		if a.secs > 0 {
			p.CPUCores = round3(a.cpuS / a.secs)
		}
		p.Resets = a.resets
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
