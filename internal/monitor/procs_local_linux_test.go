package monitor

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
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
