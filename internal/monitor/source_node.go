package monitor

import (
	"errors"
	"fmt"

	dto "github.com/prometheus/client_model/go"
)

// errNotNode is nodeCounters' answer for a page without node_exporter's
// CPU counters (a process-exporter page).
var errNotNode = errors.New("no node_cpu_seconds_total: not a node_exporter page")

// nodeCounters fills a host's Counters from one node_exporter scrape:
//
//   - CPU: node_cpu_seconds_total summed over cpus; idle and iowait modes
//     are idle, user nice system irq softirq steal are busy (guest time is
//     inside user and node_exporter reports it in a separate family, left
//     out); the number of distinct cpu labels is the core count.
//   - memory: node_memory_MemTotal_bytes - node_memory_MemAvailable_bytes.
//   - network: node_network_{receive,transmit}_bytes_total by device.
//   - disks: node_disk_{read,written}_bytes_total and
//     node_disk_io_time_seconds_total by device.
//
// The units match localSource (seconds, bytes), so the same rates apply.
// It fails when the page has no node_cpu_seconds_total (not a node_exporter).
func nodeCounters(f families) (Counters, error) {
	var c Counters
	cpus := map[string]bool{}
	instances := map[string]bool{}
	ok := f.each("node_cpu_seconds_total", func(m *dto.Metric, v float64) {
		cpus[label(m, "cpu")] = true
		instances[label(m, "instance")] = true
		switch label(m, "mode") {
		case "idle":
			c.CPU.Idle += v
		case "iowait":
			c.CPU.Idle += v
			c.CPU.Iowait += v
		case "user", "nice":
			c.CPU.Busy += v
			c.CPU.User += v
		case "system", "irq", "softirq":
			c.CPU.Busy += v
			c.CPU.System += v
		case "steal":
			c.CPU.Busy += v
			c.CPU.Steal += v
		}
	})
	if !ok {
		return c, errNotNode
	}
	if len(instances) > 1 {
		// A federation or relay page: summed, its CPU seconds would be
		// several hosts' over one host's cores, its devices would collide.
		return c, fmt.Errorf("the page holds %d hosts' node_cpu_seconds_total (instance labels): give each host's own node_exporter URL", len(instances))
	}
	c.CPU.Cores = len(cpus)
	var total, avail float64
	hasAvail := false
	f.each("node_memory_MemTotal_bytes", func(_ *dto.Metric, v float64) { total = v })
	f.each("node_memory_MemAvailable_bytes", func(_ *dto.Metric, v float64) { avail, hasAvail = v, true })
	if total > 0 && hasAvail {
		// Without MemAvailable (kernels before 3.14, some containers) the
		// memory in use is unknown: left unset, shown as "-", not as 100 %.
		c.MemTotalBytes = uint64(total)
		if avail <= total {
			c.MemUsedBytes = uint64(total - avail)
		}
	}
	c.Net = pairs(f, "node_network_receive_bytes_total", "node_network_transmit_bytes_total")
	c.Disk = pairs(f, "node_disk_read_bytes_total", "node_disk_written_bytes_total")
	f.each("node_disk_io_time_seconds_total", func(m *dto.Metric, v float64) {
		if c.DiskBusyS == nil {
			c.DiskBusyS = map[string]float64{}
		}
		c.DiskBusyS[label(m, "device")] = v
	})
	return c, nil
}

// pairs joins two per-device byte counters into IOBytes by device label.
func pairs(f families, in, out string) map[string]IOBytes {
	var res map[string]IOBytes
	set := func(m *dto.Metric, v float64, isIn bool) {
		if res == nil {
			res = map[string]IOBytes{}
		}
		d := label(m, "device")
		p := res[d]
		if isIn {
			p.In = uint64(v)
		} else {
			p.Out = uint64(v)
		}
		res[d] = p
	}
	f.each(in, func(m *dto.Metric, v float64) { set(m, v, true) })
	f.each(out, func(m *dto.Metric, v float64) { set(m, v, false) })
	return res
}

// procCounters fills process-group counters from one process-exporter
// scrape: namedprocess_namegroup_cpu_seconds_total (user and system modes
// summed), namedprocess_namegroup_memory_bytes{memtype="proportionalResident"}
// (or "resident" when smaps are not gathered) and
// namedprocess_namegroup_num_procs, by groupname. ok is false when the page
// has no process-exporter families.
func procCounters(f families) (map[string]ProcGroup, bool) {
	groups := map[string]ProcGroup{}
	get := func(m *dto.Metric) (string, ProcGroup) {
		n := label(m, "groupname")
		return n, groups[n]
	}
	ok := f.each("namedprocess_namegroup_cpu_seconds_total", func(m *dto.Metric, v float64) {
		n, g := get(m)
		g.CPUS += v
		groups[n] = g
	})
	if !ok {
		return nil, false
	}
	// The proportional set size (process-exporter gathers smaps by
	// default) counts shared pages once; the plain resident sum counts
	// them in every process.
	pss := map[string]bool{}
	f.each("namedprocess_namegroup_memory_bytes", func(m *dto.Metric, v float64) {
		n, g := get(m)
		switch label(m, "memtype") {
		case "proportionalResident":
			g.RSSBytes, pss[n] = uint64(v), true
		case "resident":
			if pss[n] {
				return
			}
			g.RSSBytes = uint64(v)
		default:
			return
		}
		groups[n] = g
	})
	f.each("namedprocess_namegroup_num_procs", func(m *dto.Metric, v float64) {
		n, g := get(m)
		g.Procs = int(v)
		groups[n] = g
	})
	return groups, true
}
