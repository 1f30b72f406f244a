package monitor

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listenOn gives fake process pid descriptors for the socket inodes and
// writes its net/tcp and net/tcp6 tables (lines as "port state inode",
// port in decimal; tcp6 lines marked with a leading "6 ").
func listenOn(t *testing.T, root string, pid int, inodes []int, lines ...string) {
	t.Helper()
	dir := filepath.Join(root, fmt.Sprint(pid))
	for _, d := range []string{"fd", "net"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, ino := range inodes {
		if err := os.Symlink(fmt.Sprintf("socket:[%d]", ino), filepath.Join(dir, "fd", fmt.Sprint(10+i))); err != nil {
			t.Fatal(err)
		}
	}
	// A descriptor that is not a socket.
	if err := os.Symlink("/var/log/x.log", filepath.Join(dir, "fd", "2")); err != nil {
		t.Fatal(err)
	}
	head := "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	tables := map[string]string{"tcp": head, "tcp6": head}
	for i, l := range lines {
		table, addr := "tcp", "0100007F"
		if rest, ok := strings.CutPrefix(l, "6 "); ok {
			table, addr, l = "tcp6", "00000000000000000000000001000000", rest
		}
		var port int
		var st string
		var ino int
		if _, err := fmt.Sscanf(l, "%d %s %d", &port, &st, &ino); err != nil {
			t.Fatal(err)
		}
		tables[table] += fmt.Sprintf("%4d: %s:%04X 00000000:0000 %s 00000000:00000000 00:00000000 00000000   106        0 %d 1 0000000000000000 100 0 0 10 0\n",
			i, addr, port, st, ino)
	}
	for name, c := range tables {
		if err := os.WriteFile(filepath.Join(dir, "net", name), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLocalProcsInstances: processes of one name are one group per
// instance (a process and its same-named descendants); a name with one
// instance keeps its plain name, one with two names each by its listening
// ports, else its pid, and stays split when one instance exits.
func TestLocalProcsInstances(t *testing.T) {
	root := t.TempDir()
	// PostgreSQL: postmaster 30, backends 31 and 32 (32 a child of 31:
	// the walk goes up more than one level).
	writeProc(t, root, 30, "postgres", 100, 30, 10)
	writeChild(t, root, 31, 30, "postgres", 100, 31, 10)
	writeChild(t, root, 32, 31, "postgres", 100, 32, 10)
	listenOn(t, root, 30, []int{500, 501}, "5432 0A 500", "6 5432 0A 501")
	// Two MariaDB servers; 10 also holds an established connection (01).
	writeProc(t, root, 10, "mariadbd", 200, 10, 10)
	listenOn(t, root, 10, []int{111, 333}, "3306 0A 111", "3306 01 333", "4444 0A 999")
	writeProc(t, root, 20, "mariadbd", 300, 20, 10)
	listenOn(t, root, 20, []int{222}, "3307 0A 222")
	// Two JVMs: one listens on two ports, one has no readable descriptors.
	writeProc(t, root, 40, "java", 400, 40, 10)
	listenOn(t, root, 40, []int{7, 8}, "13307 0A 7", "6 33071 0A 8")
	writeProc(t, root, 50, "java", 500, 50, 10)
	// A mariadbd started by a shell: the unwatched parent ends the walk.
	writeProc(t, root, 60, "bash", 1, 60, 1)
	writeChild(t, root, 61, 60, "mariadbd", 100, 61, 10)

	p := newLocalProcs([]string{"mariadbd", "postgres", "java"})
	p.root = root
	type want struct {
		procs int
		cpuS  float64
	}
	check := func(step string, wants map[string]want) {
		t.Helper()
		g, err := p.read()
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for n := range g {
			names = append(names, n)
		}
		slices.Sort(names)
		var wantNames []string
		for n := range wants {
			wantNames = append(wantNames, n)
		}
		slices.Sort(wantNames)
		if !slices.Equal(names, wantNames) {
			t.Fatalf("%s: groups %q, want %q", step, names, wantNames)
		}
		for n, w := range wants {
			if g[n].Procs != w.procs || fmt.Sprintf("%.2f", g[n].CPUS) != fmt.Sprintf("%.2f", w.cpuS) {
				t.Errorf("%s: %s = %d procs, %.2f s CPU; want %d, %.2f", step, n, g[n].Procs, g[n].CPUS, w.procs, w.cpuS)
			}
		}
	}
	check("two instances of two names", map[string]want{
		"postgres": {3, 3}, "mariadbd:3306": {1, 2}, "mariadbd:3307": {1, 3}, "mariadbd pid 61": {1, 1},
		"java:13307,33071": {1, 4}, "java pid 50": {1, 5},
	})
	// MariaDB on 3307 stops; a backend's child exits. The name stays split
	// (a group's name does not change within a watch) and the CPU of the
	// instance that left is not subtracted from the other.
	if err := os.RemoveAll(filepath.Join(root, "61")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, "20")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, "32")); err != nil {
		t.Fatal(err)
	}
	writeProc(t, root, 10, "mariadbd", 250, 10, 10)
	check("one instance left", map[string]want{
		"postgres": {2, 3}, "mariadbd:3306": {1, 2.5},
		"java:13307,33071": {1, 4}, "java pid 50": {1, 5},
	})
	// A MariaDB in a container: its own network namespace, also on 3306.
	writeProc(t, root, 80, "mariadbd", 800, 80, 10)
	listenOn(t, root, 80, []int{111}, "3306 0A 111")
	check("a second server on the same port", map[string]want{
		"postgres": {2, 3}, "mariadbd:3306": {1, 2.5}, "mariadbd:3306 pid 80": {1, 8},
		"java:13307,33071": {1, 4}, "java pid 50": {1, 5},
	})
	// A second postmaster (another cluster) without ports: postgres splits.
	// A renamed group counts anew (the watch takes its rates between two
	// readings of one name): the first instance's processes were counted,
	// so it starts at 0, the new postmaster with its whole CPU so far.
	writeProc(t, root, 70, "postgres", 700, 70, 10)
	check("a second PostgreSQL", map[string]want{
		"postgres:5432": {2, 0}, "postgres pid 70": {1, 7}, "mariadbd:3306": {1, 2.5}, "mariadbd:3306 pid 80": {1, 8},
		"java:13307,33071": {1, 4}, "java pid 50": {1, 5},
	})
}

// TestListeningIn reads the LISTEN entries of a real-shaped /proc/net/tcp
// table whose inodes the process holds.
func TestListeningIn(t *testing.T) {
	table := []byte(`  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:0CEA 00000000:0000 0A 00000000:00000000 00:00000000 00000000   106        0 21771 1 0000000000000000 100 0 0 10 0
   1: 0100007F:0CEB 00000000:0000 0A 00000000:00000000 00:00000000 00000000   106        0 21772 1 0000000000000000 100 0 0 10 0
   2: 0100007F:0CEA 0100007F:B3C2 01 00000000:00000000 00:00000000 00000000   106        0 21773 1 0000000000000000 20 4 30 10 -1
   3: short line
   4: 0100007F:ZZZZ 00000000:0000 0A 00000000:00000000 00:00000000 00000000   106        0 21774 1 0000000000000000 100 0 0 10 0
`)
	for _, tc := range []struct {
		name   string
		inodes []string
		want   []int
	}{
		{"its listener", []string{"21771"}, []int{3306}},
		{"an established socket is not a listener", []string{"21773"}, nil},
		{"another process's listener", []string{"9"}, nil},
		{"a bad port", []string{"21774"}, nil},
		{"two", []string{"21771", "21772", "21773"}, []int{3306, 3307}},
	} {
		set := map[string]bool{}
		for _, i := range tc.inodes {
			set[i] = true
		}
		if got := listeningIn(table, set); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
