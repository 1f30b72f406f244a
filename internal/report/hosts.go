package report

import (
	"fmt"
	"sort"
	"strings"

	"benchpress/internal/results"
)

// BusyRule is the seeds' rule of thumb: a host or process above 80 % of its
// CPU is the likely bottleneck.
const BusyRule = 80.0

// watched reports whether any step of c carries watch data; when none does
// the host, process and database sections are left out (absent, not zero).
func watched(c *Case) bool {
	for _, s := range c.Steps {
		if s.Run.Watch != nil {
			return true
		}
	}
	return false
}

// watchSection adds, for a case whose steps were watched, the seed 000 host
// table, seed 001's process CPU and TPS-per-CPU table, the database
// counters and commit check, the data set size line, the bottlenecks and
// the throughput-with-CPU and throughput-with-network charts.
func watchSection(d *Doc, c *Case) error {
	if !watched(c) {
		return nil
	}
	d.h(3, "Servers per step")
	d.table(watchedHosts(c))
	d.table(hostTable(c))
	d.p("CPU % is the share of all the host's cores (100 = every core busy), the mean over the measurement window; user/sys/iowait split it. " +
		"NIC figures sum every interface but loopback; disk figures sum every whole disk, util is the busiest device's busy share.")
	if t := processTable(c); len(t.Rows) > 0 {
		d.h(3, "Processes per step")
		d.table(t)
		d.p("CPU % is of one core (top's convention: 200 % = two cores busy). TPS per CPU core = step TPS / (process CPU % / 100), as in the seed's tps/cpu column.")
	}
	if t := dbTable(c); len(t.Rows) > 0 {
		d.h(3, "Database counters per step")
		d.table(t)
		d.p("Server counters per second over the window (MySQL/MariaDB: SHOW GLOBAL STATUS, server-wide; PostgreSQL: pg_stat_database of the run's database). " +
			"Commit check: the server's commit counter against the transactions benchpress counted as committed (disagreements are in the step warnings above).")
	}
	if line := sizeLine(c); line != "" {
		d.p(line)
	}
	if b := bottlenecks(c); len(b) > 0 {
		d.h(3, "Bottlenecks")
		d.add(List{Items: b})
	}
	for _, mk := range []func(*Case) (Chart, bool, error){cpuChart, netChart} {
		ch, ok, err := mk(c)
		if err != nil {
			return err
		}
		if ok {
			d.add(ch)
		}
	}
	return nil
}

// kbps formats bytes/s as KB/s (1 KB = 1024 B, the seeds' KB/S).
func kbps(bps float64) string { return fmt.Sprintf("%.0f", bps/1024) }

// hasLoopback reports whether any host of c saw loopback traffic.
func hasLoopback(c *Case) bool {
	for _, s := range c.Steps {
		if s.Run.Watch == nil {
			continue
		}
		for _, h := range s.Run.Watch.Hosts {
			if h.LoopbackRxBps > 0 || h.LoopbackTxBps > 0 {
				return true
			}
		}
	}
	return false
}

// hostTable is seed 000's "hardware use per server" table: one row per
// step and host.
func hostTable(c *Case) Table {
	lo := hasLoopback(c)
	t := Table{Header: []string{"Concurrency", "Host", "Role", "CPU %", "user/sys/iowait %", "NIC rx KB/s", "NIC tx KB/s"}}
	if lo {
		t.Header = append(t.Header, "Loopback rx KB/s", "Loopback tx KB/s")
	}
	t.Header = append(t.Header, "Disk read KB/s", "Disk write KB/s", "Disk util %", "Memory used", "Notes")
	t.Align = "rll" + strings.Repeat("r", len(t.Header)-4) + "l"
	for _, s := range c.Steps {
		if s.Run.Watch == nil {
			continue
		}
		for i, h := range s.Run.Watch.Hosts {
			step := fmt.Sprint(s.Concurrency)
			if i > 0 {
				step = ""
			}
			if h.Samples == 0 {
				row := []string{step, h.Name, h.Role}
				for len(row) < len(t.Header)-1 {
					row = append(row, "-")
				}
				why := "no figures: " + firstLine(h.Error)
				if h.Error == "" {
					why = "no host figures (no node_exporter page, or no whole interval in the window)"
				}
				t.Rows = append(t.Rows, append(row, why))
				continue
			}
			netK := func(bps float64) string {
				if h.NoNet {
					return "-"
				}
				return kbps(bps)
			}
			diskK := func(bps float64) string {
				if h.NoDisk {
					return "-"
				}
				return kbps(bps)
			}
			row := []string{step, h.Name, h.Role, fmt.Sprintf("%.1f", h.CPUPct),
				fmt.Sprintf("%.1f/%.1f/%.1f", h.UserPct, h.SysPct, h.IowaitPct), netK(h.NetRxBps), netK(h.NetTxBps)}
			if lo {
				row = append(row, netK(h.LoopbackRxBps), netK(h.LoopbackTxBps))
			}
			mem := "-"
			if h.MemTotalBytes > 0 {
				mem = fmt.Sprintf("%s of %s", results.HumanBytes(int64(h.MemUsedBytes)), results.HumanBytes(int64(h.MemTotalBytes)))
			}
			var notes []string
			if len(h.Gaps) > 0 {
				notes = append(notes, gapText(h.Gaps))
			}
			if h.CPUPct > BusyRule {
				notes = append(notes, "CPU above 80 %")
			}
			if h.Resets > 0 {
				notes = append(notes, fmt.Sprintf("%d interval(s) left out: a counter went back", h.Resets))
			}
			util := fmt.Sprintf("%.1f", h.DiskUtilPct)
			if h.NoDisk {
				util = "-"
			}
			row = append(row, diskK(h.DiskReadBps), diskK(h.DiskWriteBps), util, mem, strings.Join(notes, "; "))
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// gapText describes the gaps of a host: "no answer 12-18 s".
func gapText(gaps []results.Gap) string {
	parts := make([]string, len(gaps))
	for i, g := range gaps {
		parts[i] = fmt.Sprintf("%.0f-%.0f s", g.FromS, g.ToS)
	}
	return "no answer " + strings.Join(parts, ", ")
}

// hostCores is the core count of the named host in a step (0 if unknown).
func hostCores(w *results.Watch, host string) int {
	for _, h := range w.Hosts {
		if h.Name == host {
			return h.Cores
		}
	}
	return 0
}

// minPerCPUCores is the least process CPU (in cores) for which TPS per CPU
// core is shown: below 5 % of a core the ratio is noise, not a cost.
const minPerCPUCores = 0.05

// processTable is seed 001's cpu and tps/cpu columns, per step and process.
func processTable(c *Case) Table {
	t := Table{Header: []string{"Concurrency", "Host", "Process", "Procs", "CPU %", "Share of host %", "RSS", "TPS", "TPS per CPU core"}, Align: "rllrrrrrr"}
	for _, s := range c.Steps {
		if s.Run.Watch == nil || !s.ok() {
			continue
		}
		first := true
		for _, p := range s.Run.Watch.Processes {
			if p.CPUCores <= 0 && p.Procs == 0 {
				continue
			}
			step := ""
			if first {
				step = fmt.Sprint(s.Concurrency)
				first = false
			}
			share := "-"
			if n := hostCores(s.Run.Watch, p.Host); n > 0 {
				share = fmt.Sprintf("%.1f", p.CPUCores/float64(n)*100)
			}
			perCPU := "-"
			if p.CPUCores >= minPerCPUCores {
				perCPU = f2(s.Run.Summary.TPS / p.CPUCores)
			}
			t.Rows = append(t.Rows, []string{step, p.Host, p.Name, fmt.Sprint(p.Procs), fmt.Sprintf("%.1f", p.CPUCores*100), share,
				results.HumanBytes(int64(p.RSSBytes)), f2(s.Run.Summary.TPS), perCPU})
		}
	}
	return t
}

// bottlenecks names, per step, the hosts and processes above the 80 % rule
// and a driver-bound load generator.
func bottlenecks(c *Case) []string {
	var out []string
	for _, s := range c.Steps {
		var b []string
		if w := s.Run.Watch; w != nil && s.ok() {
			for _, h := range w.Hosts {
				if h.CPUPct > BusyRule {
					b = append(b, fmt.Sprintf("host %s (%s) CPU %.0f %%", h.Name, h.Role, h.CPUPct))
				}
			}
			procs := append([]results.WatchedProcess(nil), w.Processes...)
			sort.SliceStable(procs, func(i, j int) bool { return procs[i].CPUCores > procs[j].CPUCores })
			for _, p := range procs {
				n := hostCores(w, p.Host)
				if n > 0 && p.CPUCores/float64(n)*100 > BusyRule {
					b = append(b, fmt.Sprintf("process %s on %s at %.2f of %d cores (%.0f %%)", p.Name, p.Host, p.CPUCores, n, p.CPUCores/float64(n)*100))
				}
			}
		}
		if s.Run.Driver != nil && s.Run.Driver.DriverBound {
			b = append(b, "the load generator (driver-bound)")
		}
		if len(b) > 0 {
			out = append(out, fmt.Sprintf("Step %d: %s", s.Concurrency, strings.Join(b, "; ")))
		}
	}
	return out
}

// stepBottleneck is the short step-table note: "bottleneck: host db".
func stepBottleneck(s *Step) string {
	w := s.Run.Watch
	if w == nil || !s.ok() {
		return ""
	}
	var names []string
	for _, h := range w.Hosts {
		if h.CPUPct > BusyRule {
			names = append(names, h.Name)
		}
	}
	for _, p := range w.Processes {
		if n := hostCores(w, p.Host); n > 0 && p.CPUCores/float64(n)*100 > BusyRule {
			names = append(names, p.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "bottleneck: " + strings.Join(names, ", ") + " CPU"
}

// watchWarnings summarizes a case's watch problems for the summary table:
// steps with notes (a host that stopped answering, commits that disagree)
// and steps with a named bottleneck.
func watchWarnings(c *Case) string {
	noted, bottleneck := 0, 0
	for _, s := range c.Steps {
		if len(s.Run.Notes) > 0 {
			noted++
		}
		if stepBottleneck(s) != "" {
			bottleneck++
		}
	}
	var w []string
	if noted > 0 {
		w = append(w, fmt.Sprintf("notes in %d step(s)", noted))
	}
	if bottleneck > 0 {
		w = append(w, fmt.Sprintf("CPU bottleneck in %d step(s)", bottleneck))
	}
	return strings.Join(w, ", ")
}

// joinWarn joins two warning texts with ", ", skipping empty ones.
func joinWarn(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + ", " + b
}

// watchedHosts lists the watched hosts of c once (seed 000's server list):
// name, role, where the figures came from, cores and memory.
func watchedHosts(c *Case) Table {
	t := Table{Header: []string{"Host", "Role", "Source", "Cores", "Memory"}, Align: "lllrr"}
	seen := map[string]bool{}
	for _, s := range c.Steps {
		if s.Run.Watch == nil {
			continue
		}
		for _, h := range s.Run.Watch.Hosts {
			if seen[h.Name] || h.Samples == 0 {
				continue
			}
			seen[h.Name] = true
			cores, mem := "-", "-"
			if h.Cores > 0 {
				cores = fmt.Sprint(h.Cores)
			}
			if h.MemTotalBytes > 0 {
				mem = results.HumanBytes(int64(h.MemTotalBytes))
			}
			src := h.Source
			if src == "local" {
				src = "local (gopsutil, /proc)"
			}
			t.Rows = append(t.Rows, []string{h.Name, h.Role, src, cores, mem})
		}
	}
	return t
}
