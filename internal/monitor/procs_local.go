package monitor

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"unsafe"
)

// ProcGroup is one reading of a named process group: the processes of one
// instance of a program, found by their command name (comm); see
// procs_instance.go for how instances are told apart and named.
type ProcGroup struct {
	// CPUS is cumulative user+system CPU seconds. For the local /proc source
	// it only grows: each process contributes what it used while watched,
	// so processes that exit do not make it go backwards (as
	// process-exporter does for its groups).
	CPUS float64
	// RSSBytes is the group's resident memory now, shared pages counted
	// once: PostgreSQL's backends all map the same shared buffers, and a
	// plain sum of 2048 backends' RSS reads 88 GiB on a 24 GiB machine.
	// Local /proc: every process's private resident memory (statm's
	// resident - shared) plus the largest shared part of one process;
	// process-exporter: the proportional set size when it gathers smaps,
	// else its plain resident sum.
	RSSBytes uint64
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
	comm      []byte // a view into the data parsed
	ppid      int
	cpuTicks  uint64 // utime + stime
	startTime uint64 // clock ticks after boot: tells a reused pid apart
	rssPages  uint64
}

// statFields are the fields read, counted from field 3 (state, the first
// after the command name): ppid (4), utime (14), stime (15), starttime
// (22), rss (24).
var statFields = [5]int{1, 11, 12, 19, 21}

// parseProcPidStat parses the contents of /proc/<pid>/stat (proc(5))
// without allocating: the monitor reads it for every server process each
// interval (2048 PostgreSQL backends at 2048 terminals). The command name
// is between the first "(" and the last ")", and may hold spaces and
// parentheses.
func parseProcPidStat(data []byte) (procStat, error) {
	open, end := bytes.IndexByte(data, '('), bytes.LastIndexByte(data, ')')
	if open < 0 || end < open {
		return procStat{}, errors.New("stat: no (comm)")
	}
	st := procStat{comm: data[open+1 : end]}
	var v [len(statFields)]uint64
	field, next := 0, 0 // fields after comm, the next of statFields wanted
	rest := data[end+1:]
	for i := 0; i < len(rest) && next < len(statFields); {
		for i < len(rest) && isStatSpace(rest[i]) {
			i++
		}
		j := i
		for j < len(rest) && !isStatSpace(rest[j]) {
			j++
		}
		if j == i {
			break
		}
		if field == statFields[next] {
			n, err := strconv.ParseUint(unsafe.String(&rest[i], j-i), 10, 64) // a view: no copy
			if err != nil {
				return procStat{}, fmt.Errorf("stat field %d: %w", field+3, err)
			}
			v[next] = n
			next++
		}
		field++
		i = j
	}
	if next < len(statFields) {
		return procStat{}, fmt.Errorf("stat: %d fields after comm, want at least 22", field)
	}
	st.ppid, st.cpuTicks, st.startTime, st.rssPages = int(v[0]), v[1]+v[2], v[3], v[4]
	return st, nil
}

func isStatSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' }

// pidKey identifies one process over time (pids are reused).
type pidKey struct {
	pid   int
	start uint64
}

// localProcs reads named process groups from /proc. It is used by one
// goroutine at a time.
type localProcs struct {
	root  string            // "/proc"
	names map[string]string // comm -> the group's name (the same string)
	last  map[pidKey]uint64 // cpu ticks at the previous reading
	cum   map[string]float64
	// other holds pids seen with an unwatched name: they are not read again
	// until the set is dropped every otherTTL readings (a pid reused by a
	// watched process is then found within that many intervals).
	other map[int]bool
	reads int
	path  []byte // scratch: "<root>/<pid>/stat"
	buf   []byte // scratch: the file's contents
	// kept holds open descriptors of the watched processes' stat and
	// statm, read again each interval instead of opened by path: opening
	// and closing were half the cost of a reading (1000 processes:
	// BenchmarkLocalProcsRead). At most keepMax descriptors are open (a
	// share of the process's file limit, which the terminals' sockets
	// need); a process's are closed when it leaves /proc, all by close.
	kept    map[int]*keptFiles
	nKept   int
	keepMax int
	// Instances (procs_instance.go): the reading's watched processes and
	// their index by pid, the first instance seen of each name in a
	// reading, the names seen with more than one, and the labels of the
	// instances of those.
	ents      []procEntry
	byPid     map[int]int
	firstRoot map[string]int
	split     map[string]bool
	labels    map[pidKey]string
}

// keptFiles are one watched process's open descriptors (-1: none) of
// procFiles, and the reading that last listed the process.
type keptFiles struct {
	fd   [2]int
	seen int
}

// procFiles are the files read per process, indexed by statFile and
// statmFile.
var procFiles = [2]string{statFile: "/stat", statmFile: "/statm"}

const (
	statFile  = 0
	statmFile = 1
)

// otherTTL is how many readings the set of unwatched pids is kept.
const otherTTL = 30

func newLocalProcs(names []string) *localProcs {
	if len(names) == 0 {
		names = DefaultProcessNames
	}
	p := &localProcs{root: "/proc", names: map[string]string{}, last: map[pidKey]uint64{}, cum: map[string]float64{}, other: map[int]bool{},
		buf: make([]byte, 1024), kept: map[int]*keptFiles{}, keepMax: procFDBudget(),
		byPid: map[int]int{}, firstRoot: map[string]int{}, split: map[string]bool{}, labels: map[pidKey]string{}}
	for _, n := range names {
		p.names[truncComm(n)] = truncComm(n)
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
	if p.reads++; p.reads%otherTTL == 0 {
		clear(p.other)
	}
	ents := p.ents[:0]
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || p.other[pid] {
			continue
		}
		kf := p.kept[pid]
		b, err := p.readFile(kf, statFile, e.Name())
		if err != nil {
			continue // exited meanwhile
		}
		st, err := parseProcPidStat(b)
		if err != nil {
			continue
		}
		name, ok := p.names[string(st.comm)]
		if !ok {
			p.other[pid] = true
			p.drop(pid) // a watched process's pid, reused
			continue
		}
		if kf == nil && p.nKept+len(procFiles) <= p.keepMax {
			kf = &keptFiles{fd: [2]int{-1, -1}}
			p.kept[pid] = kf
		}
		if kf != nil {
			kf.seen = p.reads
		}
		ent := procEntry{key: pidKey{pid, st.startTime}, ppid: st.ppid, name: name, ticks: st.cpuTicks, private: st.rssPages}
		if b, err := p.readFile(kf, statmFile, e.Name()); err == nil {
			if res, sh, ok := parseStatm(b); ok && sh <= res {
				ent.private, ent.shared = res-sh, sh
			}
		}
		ents = append(ents, ent)
	}
	p.ents = ents
	p.markInstances(ents)
	page := uint64(os.Getpagesize())
	groups := map[string]ProcGroup{}
	sharedMax := map[string]uint64{}
	seen := make(map[pidKey]uint64, len(p.last))
	for i := range ents {
		e := &ents[i]
		name := p.groupName(ents, i)
		seen[e.key] = e.ticks
		if prev, ok := p.last[e.key]; ok && e.ticks >= prev {
			p.cum[name] += float64(e.ticks-prev) / clkTck
		} else if !ok {
			p.cum[name] += float64(e.ticks) / clkTck
		}
		g := groups[name]
		g.RSSBytes += e.private * page
		sharedMax[name] = max(sharedMax[name], e.shared*page)
		g.Procs++
		groups[name] = g
	}
	p.last = seen
	p.dropLabels(seen)
	for pid, kf := range p.kept {
		if kf.seen != p.reads {
			p.drop(pid) // gone from /proc
		}
	}
	for n, g := range groups {
		g.CPUS = p.cum[n]
		g.RSSBytes += sharedMax[n]
		groups[n] = g
	}
	return groups, nil
}

// parseStatm returns the resident and shared page counts of
// /proc/<pid>/statm ("size resident shared text lib data dt", proc(5)).
func parseStatm(b []byte) (resident, shared uint64, ok bool) {
	var v [3]uint64
	i := 0
	for k := range v {
		for i < len(b) && isStatSpace(b[i]) {
			i++
		}
		j := i
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			v[k] = v[k]*10 + uint64(b[j]-'0')
			j++
		}
		if j == i {
			return 0, 0, false
		}
		i = j
	}
	return v[1], v[2], true
}

// readFile reads <root>/<pid>/procFiles[i] into the reused buffer (a stat
// line is a few hundred bytes; the buffer grows if one is longer): through
// the process's kept descriptor when kf is set, opening and keeping one if
// it has none (a descriptor that fails, its process gone, is closed and the
// file opened again by path: the pid may be a new process's); without kf,
// by path.
func (p *localProcs) readFile(kf *keptFiles, i int, pid string) ([]byte, error) {
	if kf != nil && kf.fd[i] >= 0 {
		if b, err := preadProcFile(kf.fd[i], &p.buf); err == nil {
			return b, nil
		}
		closeProcFile(kf.fd[i])
		kf.fd[i] = -1
		p.nKept--
	}
	p.path = append(append(append(append(append(p.path[:0], p.root...), '/'), pid...), procFiles[i]...), 0)
	if kf == nil {
		return readProcFile(p.path, &p.buf)
	}
	fd, err := openProcFile(p.path)
	if err != nil {
		return nil, err
	}
	b, err := preadProcFile(fd, &p.buf)
	if err != nil {
		closeProcFile(fd)
		return nil, err
	}
	kf.fd[i] = fd
	p.nKept++
	return b, nil
}

// drop closes the kept descriptors of pid, if any.
func (p *localProcs) drop(pid int) {
	kf, ok := p.kept[pid]
	if !ok {
		return
	}
	for _, fd := range kf.fd {
		if fd >= 0 {
			closeProcFile(fd)
			p.nKept--
		}
	}
	delete(p.kept, pid)
}

// close closes every kept descriptor; the watch calls it when it stops.
func (p *localProcs) close() {
	for pid := range p.kept {
		p.drop(pid)
	}
}
