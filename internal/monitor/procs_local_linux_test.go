package monitor

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// TestLocalProcsKeptDescriptors: on the real /proc, a process read through
// its kept descriptors shows the CPU it used since the previous reading
// (a /proc file read again is generated anew), and close closes them all.
func TestLocalProcsKeptDescriptors(t *testing.T) {
	comm, err := os.ReadFile("/proc/self/comm")
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimSpace(string(comm))
	p := newLocalProcs([]string{name})
	first, err := p.read()
	if err != nil {
		t.Fatal(err)
	}
	if p.nKept == 0 {
		t.Fatalf("no descriptor kept (budget %d)", p.keepMax)
	}
	// 300 ms of this process's own CPU, not of wall time: beside the other
	// packages' tests on two cores a 300 ms busy loop got 0.19 s of CPU.
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	for from, start := cpu(), time.Now(); cpu()-from < 300*time.Millisecond; {
		if time.Since(start) > 30*time.Second {
			t.Fatal("300 ms of CPU not had in 30 s")
		}
	}
	second, err := p.read()
	if err != nil {
		t.Fatal(err)
	}
	if p.nKept != len(procFiles) {
		t.Errorf("%d descriptors kept, want %d (stat and statm of one process)", p.nKept, len(procFiles))
	}
	if d := second[name].CPUS - first[name].CPUS; d < 0.2 {
		t.Errorf("CPU between readings %.2f s after 300 ms of CPU: the kept descriptor reads old figures", d)
	}
	p.close()
	if p.nKept != 0 || len(p.kept) != 0 {
		t.Errorf("after close: %d descriptors of %d processes", p.nKept, len(p.kept))
	}
}

// TestLocalProcsInstancesReal: with the two MariaDB servers the test
// setup starts on this host (scripts/db-setup.sh: 3306, and stock settings
// on 3307), the local watch reports each as a group of its own, named by
// the port it listens on, not one "mariadbd" row summing both.
func TestLocalProcsInstancesReal(t *testing.T) {
	var ports []string
	for _, tg := range []*target.Target{testdb.For(t, target.MySQL, "procs"), testdb.MySQLDefaults(t, "procs")} {
		host, port, err := net.SplitHostPort(tg.Endpoints[0])
		if err != nil {
			t.Fatal(err)
		}
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			t.Skipf("server %s is not on this host", tg.Endpoints[0])
		}
		ports = append(ports, port)
	}
	if os.Geteuid() != 0 {
		t.Skip("the servers' descriptors are readable by root (or their user) only")
	}
	p := newLocalProcs([]string{"mariadbd", "mysqld"})
	defer p.close()
	g, err := p.read()
	if err != nil {
		t.Fatal(err)
	}
	for _, port := range ports {
		found := false
		for name, pg := range g {
			_, list, ok := strings.Cut(name, ":")
			if ok && slices.Contains(strings.Split(list, ","), port) && pg.Procs >= 1 && pg.RSSBytes > 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("no group for the server on port %s: %v", port, g)
		}
	}
}

// BenchmarkLocalProcsRead reads the real /proc with 1000 watched processes,
// the cost per reading the watch pays every interval: as one server's
// backends (a copy of bash named pgfake and 1000 subshells of it blocked
// on a fifo, standing in for a postmaster and its backends at 1000
// terminals), and as 1000 unrelated processes (sleep), each an instance
// of its own.
func BenchmarkLocalProcsRead(b *testing.B) {
	const n = 1000
	b.Run("one server's backends", func(b *testing.B) {
		dir := b.TempDir()
		bash, err := os.ReadFile("/bin/bash")
		if err != nil {
			b.Skip(err)
		}
		bin, fifo := filepath.Join(dir, "pgfake"), filepath.Join(dir, "fifo")
		if err := os.WriteFile(bin, bash, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			b.Fatal(err)
		}
		c := exec.Command(bin, "-c", fmt.Sprintf(`for i in $(seq %d); do (read -r x < %q) & done; wait`, n, fifo))
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := c.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() {
			_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
			_ = c.Wait()
		})
		benchProcsRead(b, "pgfake", n+1, 1)
	})
	b.Run("unrelated processes", func(b *testing.B) {
		cmds := make([]*exec.Cmd, 0, n)
		b.Cleanup(func() {
			for _, c := range cmds {
				_ = c.Process.Kill()
				_ = c.Wait()
			}
		})
		for range n {
			c := exec.Command("sleep", "600")
			if err := c.Start(); err != nil {
				b.Fatal(err)
			}
			cmds = append(cmds, c)
		}
		benchProcsRead(b, "sleep", n, n)
	})
}

// benchProcsRead waits until name has procs processes in groups groups
// (or more), then times readings.
func benchProcsRead(b *testing.B, name string, procs, groups int) {
	p := newLocalProcs([]string{name})
	defer p.close()
	for start := time.Now(); ; {
		g, err := p.read()
		if err != nil {
			b.Fatal(err)
		}
		total := 0
		for _, pg := range g {
			total += pg.Procs
		}
		if total >= procs && len(g) >= groups {
			break
		}
		if time.Since(start) > 30*time.Second {
			b.Fatalf("after 30 s: %d processes in %d groups, want %d in %d", total, len(g), procs, groups)
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := p.read(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*procs), "ns/process")
}
