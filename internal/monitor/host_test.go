package monitor

import (
	"context"
	"runtime"
	"testing"
	"time"
)

func TestHostInfo(t *testing.T) {
	h := HostInfo()
	if h.Hostname == "" || h.OS == "" || h.Arch == "" || h.CPUs <= 0 {
		t.Errorf("HostInfo = %+v, want hostname, OS, arch and CPUs", h)
	}
	if runtime.GOOS == "linux" && h.MemTotalBytes == 0 {
		t.Errorf("HostInfo on Linux without memory total: %+v", h)
	}
	t.Logf("%+v", h)
}

// The local host's counters, read twice, give sane rates: CPU within
// 0-100 %, memory in use within the total, loopback apart from the other
// interfaces.
func TestLocalSourceSmoke(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("local counters are checked on Linux")
	}
	var src localSource
	a, err := src.read(context.Background())
	if err != nil {
		t.Logf("read error (tolerated): %v", err)
	}
	time.Sleep(100 * time.Millisecond)
	b, err := src.read(context.Background())
	if err != nil {
		t.Logf("read error (tolerated): %v", err)
	}
	s := rates(a, b)
	if s.CPUPct < 0 || s.CPUPct > 100 || s.MemTotalBytes == 0 || s.MemUsedBytes > s.MemTotalBytes {
		t.Errorf("sample = %+v", s)
	}
	if _, ok := s.Net["lo"]; ok && len(s.Net) > 1 {
		t.Errorf("lo kept next to other interfaces: %v", s.Net)
	}
}
