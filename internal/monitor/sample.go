package monitor

import (
	"regexp"
	"time"
)

// Counters is one reading of a host's cumulative counters, as a source
// (localSource, a node_exporter page) gives it. Two consecutive readings make a [Sample].
type Counters struct {
	At            time.Time
	CPU           CPUTimes // any unit, the same for every reading of one source
	MemUsedBytes  uint64   // in use now (total minus available)
	MemTotalBytes uint64
	Net           map[string]IOBytes // per interface: In = received, Out = sent
	Disk          map[string]IOBytes // per device: In = read, Out = written
	// DiskBusyS is each device's cumulative time spent doing I/O, in
	// seconds (/proc/diskstats field 10, node_disk_io_time_seconds_total).
	DiskBusyS map[string]float64
}

// IOBytes is a pair of cumulative byte counters.
type IOBytes struct {
	In, Out uint64
}

// Sample is a host's figures over one sampling interval, ending at At.
type Sample struct {
	At     time.Time `json:"at"`
	CPUPct float64   `json:"cpu_pct"` // all cores, 100 = every core busy
	// UserPct, SysPct and IowaitPct split the interval's CPU time (all
	// cores): user+nice, system+irq+softirq, and iowait (counted idle).
	UserPct   float64 `json:"user_pct"`
	SysPct    float64 `json:"sys_pct"`
	IowaitPct float64 `json:"iowait_pct"`
	// StealPct is the share the hypervisor took (inside CPUPct).
	StealPct      float64 `json:"steal_pct,omitempty"`
	Cores         int     `json:"cores,omitempty"`
	MemUsedBytes  uint64  `json:"mem_used_bytes"`
	MemTotalBytes uint64  `json:"mem_total_bytes"`
	// Net holds receive/transmit bytes per second per interface. Loopback
	// ("lo") is left out unless it is the only interface.
	Net map[string]NetRate `json:"net,omitempty"`
	// Loopback is lo's rate when other interfaces exist too (a database on
	// the same machine as the driver talks over it); nil otherwise.
	Loopback *NetRate `json:"loopback,omitempty"`
	// Disk holds read/write bytes per second per block device; partitions
	// and RAM, loop, floppy and optical devices are left out.
	Disk map[string]DiskRate `json:"disk,omitempty"`
}

// NetRate is one interface's throughput in bytes per second.
type NetRate struct {
	RxBps float64 `json:"rx_bps"`
	TxBps float64 `json:"tx_bps"`
}

// DiskRate is one device's throughput in bytes per second.
type DiskRate struct {
	ReadBps  float64 `json:"read_bps"`
	WriteBps float64 `json:"write_bps"`
	// UtilPct is the share of the interval the device was busy (iostat's
	// %util); 0 when the source gave no busy time.
	UtilPct float64 `json:"util_pct,omitempty"`
}

// skipDisk matches device names that are not whole, real disks: partitions
// (sda1, vdb2, xvda1, nvme0n1p1, mmcblk0p1) and RAM, zram, loop, floppy and
// optical devices. It follows node_exporter's default device exclusion so
// local and remote series list the same devices.
var skipDisk = regexp.MustCompile(`^((z?ram|loop|fd|sr)\d+|((h|s|v|xv)d[a-z]+|nvme\d+n\d+p|mmcblk\d+p)\d+)$`)

// stackedDisk matches block devices stacked on other disks: device-mapper
// (LVM, dm-crypt, multipath: dm-N) and software RAID (mdN). They keep their
// own row, but a host's disk totals leave them out: their I/O is on the
// disks beneath, counted there (an LVM root on sda3 would count twice).
var stackedDisk = regexp.MustCompile(`^(dm-|md)\d+$`)

// stackedNIC matches network interfaces whose traffic also crosses another
// interface of the host: container and VM plumbing (veth pairs, Docker,
// libvirt and LXC bridges, Linux bridges br-*, CNI, Flannel, Calico,
// Weave, VXLAN and IP-in-IP tunnels, KVM's vnet taps) and bond masters
// (their slaves carry the same bytes). They keep their own row, but a
// host's NIC totals leave them out: a database in a container answering
// clients on eth0 would count its bytes on eth0, docker0 and its veth.
//
// Linux bridges named br0, vmbr0 (Proxmox) or bridge0, team masters, Open
// vSwitch, Cilium, Geneve and macvtap devices and VLAN sub-interfaces
// (eno1.100, vlan100) are stacked the same way. By name alone a remote
// host's plumbing cannot always be told apart: an interface named
// otherwise is counted.
var stackedNIC = regexp.MustCompile(`^(veth|docker\d|br-|br\d|vmbr|bridge|virbr|lxcbr|lxc|cni|flannel|cali|weave|vxlan|tunl|kube-|vnet|bond|team|ovs-|cilium_|genev_sys|macvtap|vlan)|\.\d+$`)

// rates turns two readings of the same source, a before b, into the sample
// for the interval between them. Interfaces or devices missing from either
// reading are left out; a counter that went backwards (reset or wrap) gives
// a rate of zero.
func rates(a, b Counters) Sample {
	s := Sample{
		At:            b.At,
		CPUPct:        BusyPct(a.CPU, b.CPU),
		UserPct:       sharePct(a.CPU, b.CPU, a.CPU.User, b.CPU.User),
		SysPct:        sharePct(a.CPU, b.CPU, a.CPU.System, b.CPU.System),
		IowaitPct:     sharePct(a.CPU, b.CPU, a.CPU.Iowait, b.CPU.Iowait),
		StealPct:      sharePct(a.CPU, b.CPU, a.CPU.Steal, b.CPU.Steal),
		Cores:         b.CPU.Cores,
		MemUsedBytes:  b.MemUsedBytes,
		MemTotalBytes: b.MemTotalBytes,
	}
	dt := b.At.Sub(a.At).Seconds()
	if dt <= 0 {
		return s
	}
	onlyLo := len(b.Net) == 1
	for name, cur := range b.Net {
		prev, ok := a.Net[name]
		if !ok {
			continue
		}
		if name == "lo" && !onlyLo {
			s.Loopback = &NetRate{RxBps: perSec(prev.In, cur.In, dt), TxBps: perSec(prev.Out, cur.Out, dt)}
			continue
		}
		if s.Net == nil {
			s.Net = make(map[string]NetRate, len(b.Net))
		}
		s.Net[name] = NetRate{RxBps: perSec(prev.In, cur.In, dt), TxBps: perSec(prev.Out, cur.Out, dt)}
	}
	for name, cur := range b.Disk {
		prev, ok := a.Disk[name]
		if !ok || skipDisk.MatchString(name) {
			continue
		}
		if s.Disk == nil {
			s.Disk = make(map[string]DiskRate, len(b.Disk))
		}
		r := DiskRate{ReadBps: perSec(prev.In, cur.In, dt), WriteBps: perSec(prev.Out, cur.Out, dt)}
		if busy := b.DiskBusyS[name] - a.DiskBusyS[name]; busy > 0 {
			r.UtilPct = clamp(busy/dt*100, 0, 100)
		}
		s.Disk[name] = r
	}
	return s
}

func perSec(a, b uint64, dt float64) float64 {
	if b < a {
		return 0
	}
	return float64(b-a) / dt
}
