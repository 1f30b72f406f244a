package monitor

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A process group is one instance of a named program: a process and its
// descendants of the same name (PostgreSQL's postmaster and its backends,
// ShardingSphere-Proxy's JVM, one mariadbd). While a name has a single
// instance its group is the name itself ("mariadbd"); once two instances of
// a name have been seen in one watch (two MariaDB servers on 3306 and 3307,
// a proxy beside another JVM), each instance is a group of its own, named
// by the TCP ports its first process listens on ("mariadbd:3306") or, when
// none are found (unix sockets only, or /proc/<pid>/fd not readable by
// this user), by that process's pid ("mariadbd pid 812"); an instance on
// the same ports as one already named (containers, each in its own network
// namespace) gets both ("mariadbd:3306 pid 812"). The ports are looked up
// once, when the instance is first read. Summing two
// servers' CPU and memory into one row would charge the idle one's memory
// and the busy one's CPU to whichever the user reads it as.

// maxInstanceHops bounds the walk up a process tree (a cycle in a
// malformed /proc cannot loop for ever).
const maxInstanceHops = 64

// maxLabelPorts is how many listening ports name an instance at most.
const maxLabelPorts = 3

// procEntry is one watched process in a reading.
type procEntry struct {
	key     pidKey // pid and start time
	ppid    int
	name    string // the watched name (comm)
	ticks   uint64 // utime + stime
	private uint64 // resident pages not shared
	shared  uint64 // resident shared pages
	root    int    // index in the reading of the instance's first process
}

// markInstances sets each entry's root: the furthest ancestor reached
// through parents of the same name that are in the reading. It records in
// p.split every name with more than one instance in this reading (once
// split, a name stays split for the watch, so a group's name does not
// change when one instance exits).
func (p *localProcs) markInstances(ents []procEntry) {
	clear(p.byPid)
	for i := range ents {
		p.byPid[ents[i].key.pid] = i
	}
	clear(p.firstRoot)
	for i := range ents {
		r := i
		for hops := 0; hops < maxInstanceHops; hops++ {
			e := &ents[r]
			j, ok := p.byPid[e.ppid]
			if !ok || j == r || ents[j].name != e.name {
				break
			}
			r = j
		}
		ents[i].root = r
		name := ents[i].name
		if first, ok := p.firstRoot[name]; !ok {
			p.firstRoot[name] = ents[r].key.pid
		} else if first != ents[r].key.pid {
			p.split[name] = true
		}
	}
}

// groupName is the group of entry i: its name, or for a split name the
// name and its instance's label (found once per instance and kept while the
// instance lives).
func (p *localProcs) groupName(ents []procEntry, i int) string {
	e := &ents[i]
	if !p.split[e.name] {
		return e.name
	}
	root := &ents[e.root]
	if l, ok := p.labels[root.key]; ok {
		return l
	}
	l := instanceLabel(p.root, root.name, root.key.pid)
	for k, other := range p.labels {
		if other == l && k != root.key {
			// Another instance listens on the same ports: servers in
			// containers, each on 3306 in its own network namespace.
			l += " pid " + strconv.Itoa(root.key.pid)
			break
		}
	}
	p.labels[root.key] = l
	return l
}

// dropLabels forgets the labels of instances whose first process has left.
func (p *localProcs) dropLabels(seen map[pidKey]uint64) {
	for k := range p.labels {
		if _, ok := seen[k]; !ok {
			delete(p.labels, k)
		}
	}
}

// instanceLabel names the instance whose first process is pid: name and the
// TCP ports it listens on, else name and pid.
func instanceLabel(root, name string, pid int) string {
	ports := listenPorts(root, pid)
	if len(ports) == 0 {
		return name + " pid " + strconv.Itoa(pid)
	}
	if len(ports) > maxLabelPorts {
		ports = ports[:maxLabelPorts]
	}
	s := make([]string, len(ports))
	for i, port := range ports {
		s[i] = strconv.Itoa(port)
	}
	return name + ":" + strings.Join(s, ",")
}

// listenPorts returns, sorted and once each, the local ports of the TCP
// sockets in LISTEN state that process pid holds open: the inodes of its
// descriptors that are sockets (/proc/<pid>/fd/* -> "socket:[inode]")
// matched against the listening entries of /proc/<pid>/net/tcp and tcp6
// (proc(5); state 0A is TCP_LISTEN). Nil when the descriptors cannot be
// read (another user's process, without privilege).
func listenPorts(root string, pid int) []int {
	dir := filepath.Join(root, strconv.Itoa(pid))
	fds, err := os.ReadDir(filepath.Join(dir, "fd"))
	if err != nil {
		return nil
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		l, err := os.Readlink(filepath.Join(dir, "fd", fd.Name()))
		if err != nil {
			continue
		}
		if ino, ok := strings.CutPrefix(l, "socket:["); ok && strings.HasSuffix(ino, "]") {
			inodes[ino[:len(ino)-1]] = true
		}
	}
	if len(inodes) == 0 {
		return nil
	}
	var ports []int
	for _, table := range []string{"tcp", "tcp6"} {
		b, err := os.ReadFile(filepath.Join(dir, "net", table))
		if err != nil {
			continue
		}
		ports = append(ports, listeningIn(b, inodes)...)
	}
	slices.Sort(ports)
	return slices.Compact(ports)
}

// listeningIn returns the local ports of the LISTEN entries of a
// /proc/net/tcp{,6} table whose inode is in inodes. A line is "sl
// local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid
// timeout inode ...", addresses as hex "ADDR:PORT".
func listeningIn(table []byte, inodes map[string]bool) []int {
	var ports []int
	sc := bufio.NewScanner(bytes.NewReader(table))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[3] != "0A" || !inodes[f[9]] {
			continue
		}
		i := strings.LastIndexByte(f[1], ':')
		if i < 0 {
			continue
		}
		if port, err := strconv.ParseUint(f[1][i+1:], 16, 16); err == nil {
			ports = append(ports, int(port))
		}
	}
	return ports
}
