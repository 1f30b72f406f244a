package monitor

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// writeProc writes a fake /proc/<pid>/stat with the given comm, utime+stime
// ticks (all in utime), start time and RSS pages, its parent init (pid 1).
func writeProc(t *testing.T, root string, pid int, comm string, ticks, start, rss uint64) {
	t.Helper()
	writeChild(t, root, pid, 1, comm, ticks, start, rss)
}

// writeChild is writeProc with the parent's pid.
func writeChild(t *testing.T, root string, pid, ppid int, comm string, ticks, start, rss uint64) {
	t.Helper()
	dir := filepath.Join(root, fmt.Sprint(pid))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf("%d (%s) S %d 1 1 0 -1 0 0 0 0 0 %d 0 0 0 20 0 1 0 %d 1000 %d 0\n", pid, comm, ppid, ticks, start, rss)
	if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLocalProcsAccounting(t *testing.T) {
	root := t.TempDir()
	p := newLocalProcs([]string{"mariadbd", "postgres"})
	p.root = root
	page := uint64(os.Getpagesize())
	steps := []struct {
		name    string
		setup   func()
		wantCPU map[string]float64 // cumulative seconds per group
		procs   map[string]int
	}{
		{"baseline", func() {
			writeProc(t, root, 10, "mariadbd", 500, 1, 100)
			writeProc(t, root, 20, "postgres", 100, 2, 10)
			writeProc(t, root, 30, "bash", 9999, 3, 1)
		}, map[string]float64{"mariadbd": 5, "postgres": 1}, map[string]int{"mariadbd": 1, "postgres": 1}},
		{"grows, a backend starts", func() {
			writeProc(t, root, 10, "mariadbd", 600, 1, 100)
			writeChild(t, root, 21, 20, "postgres", 50, 4, 10) // a backend of postmaster 20
		}, map[string]float64{"mariadbd": 6, "postgres": 1.5}, map[string]int{"mariadbd": 1, "postgres": 2}},
		{"a backend exits: the group does not go back", func() {
			os.RemoveAll(filepath.Join(root, "21"))
			writeProc(t, root, 20, "postgres", 130, 2, 10)
		}, map[string]float64{"mariadbd": 6, "postgres": 1.8}, map[string]int{"mariadbd": 1, "postgres": 1}},
		{"pid reused by a new backend", func() {
			writeProc(t, root, 20, "postgres", 20, 9, 10)
		}, map[string]float64{"mariadbd": 6, "postgres": 2.0}, map[string]int{"mariadbd": 1, "postgres": 1}},
	}
	for _, st := range steps {
		st.setup()
		g, err := p.read()
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range st.wantCPU {
			if got := g[name].CPUS; fmt.Sprintf("%.2f", got) != fmt.Sprintf("%.2f", want) {
				t.Errorf("%s: %s CPU = %v s, want %v", st.name, name, got, want)
			}
			if g[name].Procs != st.procs[name] {
				t.Errorf("%s: %s procs = %d, want %d", st.name, name, g[name].Procs, st.procs[name])
			}
		}
		if _, ok := g["bash"]; ok {
			t.Errorf("%s: unwatched bash reported", st.name)
		}
		if g["mariadbd"].RSSBytes != 100*page {
			t.Errorf("%s: mariadbd RSS = %d", st.name, g["mariadbd"].RSSBytes)
		}
	}
}

// TestLocalProcsSharedOnce: a group's RSS counts each process's private
// pages and the shared pages (PostgreSQL's shared buffers, mapped by every
// backend) once, from /proc/<pid>/statm; a process without statm counts
// its whole RSS.
func TestLocalProcsSharedOnce(t *testing.T) {
	page := uint64(os.Getpagesize())
	tests := []struct {
		name  string
		statm map[int]string // pid -> statm contents; absent: none
		want  uint64         // pages
	}{
		{"no statm: the plain sum", map[int]string{}, 1000 + 900 + 50},
		{"shared once", map[int]string{1: "5000 1000 800 1 0 300 0\n", 2: "5000 900 800 1 0 200 0\n", 3: "9 50 10 1 0 40 0\n"},
			200 + 100 + 40 + 800},
		{"one without statm", map[int]string{1: "5000 1000 800 1 0 300 0\n", 2: "5000 900 800 1 0 200 0\n"},
			200 + 100 + 50 + 800},
		{"garbage statm: the stat RSS", map[int]string{1: "x y z\n", 2: "5000 900 800\n", 3: "9 50 10\n"},
			1000 + 100 + 40 + 800},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeProc(t, root, 1, "postgres", 1, 1, 1000)
			writeProc(t, root, 2, "postgres", 1, 2, 900)
			writeProc(t, root, 3, "postgres", 1, 3, 50)
			for pid, c := range tc.statm {
				if err := os.WriteFile(filepath.Join(root, fmt.Sprint(pid), "statm"), []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p := newLocalProcs([]string{"postgres"})
			p.root = root
			g, err := p.read()
			if err != nil {
				t.Fatal(err)
			}
			if got := g["postgres"].RSSBytes / page; got != tc.want || g["postgres"].Procs != 3 {
				t.Errorf("RSS %d pages of %d procs, want %d of 3", got, g["postgres"].Procs, tc.want)
			}
		})
	}
}

// TestLocalProcsReadAllocations: a reading allocates a few hundred bytes
// per watched process (opening the file), not the contents and a split of
// every line (~1.5 KB before): the monitor reads 2048 PostgreSQL backends
// each interval at 2048 terminals, inside the driver whose GC share is
// reported.
func TestLocalProcsReadAllocations(t *testing.T) {
	root := t.TempDir()
	const n, reads = 200, 5
	for i := 0; i < n; i++ {
		writeChild(t, root, 100+i, 100, "postgres", uint64(i), uint64(i), 10) // postmaster 100 and its backends
	}
	p := newLocalProcs([]string{"postgres"})
	p.root = root
	if _, err := p.read(); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 0; i < reads; i++ {
		if g, err := p.read(); err != nil || g["postgres"].Procs != n {
			t.Fatalf("read: %+v, %v", g, err)
		}
	}
	runtime.ReadMemStats(&after)
	bytes := float64(after.TotalAlloc-before.TotalAlloc) / (n * reads)
	objects := float64(after.Mallocs-before.Mallocs) / (n * reads)
	t.Logf("per process and reading: %.0f bytes, %.1f objects", bytes, objects)
	if bytes > 700 || objects > 7 {
		t.Errorf("per process and reading: %.0f bytes, %.1f objects; want <= 700 and <= 7", bytes, objects)
	}
}

func TestParseProcPidStatErrors(t *testing.T) {
	rest := " S 1 1 1 0 -1 0 0 0 0 0 %s 7 0 0 20 0 1 0 5 1000 9 0\n"
	for _, tt := range []struct {
		name, line string
		ok         bool
		ticks      uint64
	}{
		{"plain", "1 (postgres)" + fmt.Sprintf(rest, "3"), true, 10},
		{"ppid not a number", "1 (x) S x" + fmt.Sprintf(rest[4:], "3"), false, 0},
		{"comm with ) and spaces", "1 (a) b (c))" + fmt.Sprintf(rest, "3"), true, 10},
		{"not a number", "1 (x)" + fmt.Sprintf(rest, "3x"), false, 0},
		{"overflow", "1 (x)" + fmt.Sprintf(rest, "99999999999999999999999"), false, 0},
		{"no comm", "1 x S 1", false, 0},
		{"short", "1 (x) S 1 2 3", false, 0},
	} {
		st, err := parseProcPidStat([]byte(tt.line))
		if (err == nil) != tt.ok || st.cpuTicks != tt.ticks {
			t.Errorf("%s: %+v, %v", tt.name, st, err)
		}
	}
}
