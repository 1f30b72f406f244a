package monitor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ProcGroup is one reading of a named process group: every process whose
// command name (comm) is the group's name.
type ProcGroup struct {
	// CPUS is cumulative user+system CPU seconds. For the local /proc source
	// it only grows: each process contributes what it used while watched,
	// so processes that exit do not make it go backwards (as
	// process-exporter does for its groups).
	CPUS     float64
	RSSBytes uint64 // resident memory of all processes of the group now
	Procs    int
}

// DefaultProcessNames are the processes watched when none are named: the
// database servers, a Java proxy (ShardingSphere-Proxy and its peers) and
// benchpress itself.
var DefaultProcessNames = []string{"mariadbd", "mysqld", "postgres", "java", "benchpress"}

// clkTck is USER_HZ, the unit of utime/stime in /proc/<pid>/stat. It is 100
// on every Linux architecture Go supports (sysconf(_SC_CLK_TCK)).
const clkTck = 100

// procStat is the part of /proc/<pid>/stat a process group needs.
type procStat struct {
	comm      string
	cpuTicks  uint64 // utime + stime
	startTime uint64 // clock ticks after boot: tells a reused pid apart
	rssPages  uint64
}

// parseProcPidStat parses the contents of /proc/<pid>/stat (proc(5)). The
// command name is between the first "(" and the last ")", and may hold
// spaces and parentheses.
func parseProcPidStat(data string) (procStat, error) {
	open, end := strings.IndexByte(data, '('), strings.LastIndexByte(data, ')')
	if open < 0 || end < open {
		return procStat{}, errors.New("stat: no (comm)")
	}
	st := procStat{comm: data[open+1 : end]}
	f := strings.Fields(data[end+1:])
	// f[0] is field 3 (state): utime is field 14, stime 15, starttime 22, rss 24.
	if len(f) < 22 {
		return procStat{}, fmt.Errorf("stat: %d fields after comm, want at least 22", len(f))
	}
	var v [4]uint64
	for i, idx := range [4]int{11, 12, 19, 21} {
		n, err := strconv.ParseUint(f[idx], 10, 64)
		if err != nil {
			return procStat{}, fmt.Errorf("stat field %d: %w", idx+3, err)
		}
		v[i] = n
	}
	st.cpuTicks, st.startTime, st.rssPages = v[0]+v[1], v[2], v[3]
	return st, nil
}

// pidKey identifies one process over time (pids are reused).
type pidKey struct {
	pid   int
	start uint64
}

// localProcs reads named process groups from /proc. It is used by one
// goroutine at a time.
type localProcs struct {
	root  string // "/proc"
	names map[string]bool
	last  map[pidKey]uint64 // cpu ticks at the previous reading
	cum   map[string]float64
	// other holds pids seen with an unwatched name: they are not read again
	// until the set is dropped every otherTTL readings (a pid reused by a
	// watched process is then found within that many intervals).
	other map[int]bool
	reads int
}

// otherTTL is how many readings the set of unwatched pids is kept.
const otherTTL = 30

func newLocalProcs(names []string) *localProcs {
	if len(names) == 0 {
		names = DefaultProcessNames
	}
	p := &localProcs{root: "/proc", names: map[string]bool{}, last: map[pidKey]uint64{}, cum: map[string]float64{}, other: map[int]bool{}}
	for _, n := range names {
		p.names[truncComm(n)] = true
	}
	return p
}

// truncComm is the kernel's comm: at most 15 bytes.
func truncComm(s string) string {
	if len(s) > 15 {
		return s[:15]
	}
	return s
}

// read returns every watched group present now. A process seen for the
// first time contributes its whole CPU time so far (it started in or just
// before the window; backends a run opens are new).
func (p *localProcs) read() (map[string]ProcGroup, error) {
	entries, err := os.ReadDir(p.root)
	if err != nil {
		return nil, fmt.Errorf("processes: %w", err)
	}
	page := uint64(os.Getpagesize())
	if p.reads++; p.reads%otherTTL == 0 {
		clear(p.other)
	}
	groups := map[string]ProcGroup{}
	seen := make(map[pidKey]uint64, len(p.last))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || p.other[pid] {
			continue
		}
		b, err := os.ReadFile(filepath.Join(p.root, e.Name(), "stat"))
		if err != nil {
			continue // exited meanwhile
		}
		st, err := parseProcPidStat(string(b))
		if err != nil {
			continue
		}
		if !p.names[st.comm] {
			p.other[pid] = true
			continue
		}
		k := pidKey{pid, st.startTime}
		seen[k] = st.cpuTicks
		if prev, ok := p.last[k]; ok && st.cpuTicks >= prev {
			p.cum[st.comm] += float64(st.cpuTicks-prev) / clkTck
		} else if !ok {
			p.cum[st.comm] += float64(st.cpuTicks) / clkTck
		}
		g := groups[st.comm]
		g.RSSBytes += st.rssPages * page
		g.Procs++
		groups[st.comm] = g
	}
	p.last = seen
	for n, g := range groups {
		g.CPUS = p.cum[n]
		groups[n] = g
	}
	return groups, nil
}
