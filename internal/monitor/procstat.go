package monitor

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// CPUTimes is cumulative machine CPU time, summed over all cores, in the
// unit of its source (USER_HZ jiffies for /proc/stat, seconds for gopsutil).
// Only differences between two readings of the same source are meaningful.
type CPUTimes struct {
	// Busy is user + nice + system + irq + softirq + steal. Steal counts as
	// busy: the core was not available to run anything else. Guest time is
	// already inside user and nice and is not added again.
	Busy float64
	// Idle is idle + iowait.
	Idle float64
	// User (user + nice), System (system + irq + softirq) and Iowait split
	// the figures above for the host tables; they may be zero when the
	// source does not tell them apart. Steal (inside Busy) is the time the
	// hypervisor ran something else on the virtual machine's cores.
	User, System, Iowait, Steal float64
	// Cores is the number of per-core lines seen (0 if unknown).
	Cores int
}

// Total is Busy + Idle.
func (t CPUTimes) Total() float64 { return t.Busy + t.Idle }

// BusyPct returns the share of CPU time that was busy between a and b, in
// percent of all cores (100 = every core busy the whole time). It returns 0
// when no time elapsed or the counters went backwards.
func BusyPct(a, b CPUTimes) float64 {
	total := b.Total() - a.Total()
	busy := b.Busy - a.Busy
	if total <= 0 || busy <= 0 {
		return 0
	}
	return clamp(busy/total*100, 0, 100)
}

// sharePct is the share of the elapsed CPU time (all cores) that part a..b
// took, in percent; 0 when no time elapsed or the counter went backwards.
func sharePct(a, b CPUTimes, partA, partB float64) float64 {
	total := b.Total() - a.Total()
	part := partB - partA
	if total <= 0 || part <= 0 {
		return 0
	}
	return clamp(part/total*100, 0, 100)
}

// ParseProcStat parses the contents of Linux /proc/stat: the aggregate "cpu"
// line gives the times and the "cpuN" lines the core count. Fields are
// user nice system idle iowait irq softirq steal guest guest_nice; kernels
// that print fewer than the first four are rejected, missing later fields
// count as zero (proc(5)).
func ParseProcStat(data string) (CPUTimes, error) {
	var t CPUTimes
	found := false
	sc := bufio.NewScanner(strings.NewReader(data))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || !strings.HasPrefix(fields[0], "cpu") {
			continue
		}
		if fields[0] != "cpu" {
			if _, err := strconv.Atoi(fields[0][3:]); err == nil {
				t.Cores++
			}
			continue
		}
		if len(fields) < 5 {
			return CPUTimes{}, fmt.Errorf("/proc/stat: cpu line has %d fields, want at least 4 values", len(fields)-1)
		}
		var v [8]float64 // user nice system idle iowait irq softirq steal
		for i := 0; i < len(v) && i+1 < len(fields); i++ {
			n, err := strconv.ParseUint(fields[i+1], 10, 64)
			if err != nil {
				return CPUTimes{}, fmt.Errorf("/proc/stat: cpu field %d: %w", i+1, err)
			}
			v[i] = float64(n)
		}
		t.Busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7]
		t.Idle = v[3] + v[4]
		t.User, t.System, t.Iowait, t.Steal = v[0]+v[1], v[2]+v[5]+v[6], v[4], v[7]
		found = true
	}
	if err := sc.Err(); err != nil {
		return CPUTimes{}, fmt.Errorf("/proc/stat: %w", err)
	}
	if !found {
		return CPUTimes{}, errors.New("/proc/stat: no aggregate cpu line")
	}
	return t, nil
}

// readProcStat reads and parses /proc/stat.
func readProcStat() (CPUTimes, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return CPUTimes{}, err
	}
	return ParseProcStat(string(b))
}

// ParseVmHWM returns the peak resident set size ("VmHWM:" line, in kB) from
// the contents of /proc/<pid>/status, in bytes.
func ParseVmHWM(data string) (uint64, error) {
	for line := range strings.Lines(data) {
		rest, ok := strings.CutPrefix(line, "VmHWM:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("status: malformed VmHWM line %q", strings.TrimSpace(line))
		}
		kb, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("status: VmHWM: %w", err)
		}
		return kb * 1024, nil
	}
	return 0, errors.New("status: no VmHWM line")
}

func clamp(v, lo, hi float64) float64 {
	return max(lo, min(hi, v))
}
