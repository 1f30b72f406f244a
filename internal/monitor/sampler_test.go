package monitor

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"
)

// fakeSource returns counters that grow by a fixed step per read.
type fakeSource struct {
	mu sync.Mutex
	n  uint64
}

func (f *fakeSource) read(context.Context) (Counters, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	var err error
	if f.n == 2 {
		err = errors.New("disk counters: boom")
	}
	return Counters{
		At:  time.Now(),
		CPU: CPUTimes{Busy: float64(f.n), Idle: float64(3 * f.n)},
		Net: map[string]IOBytes{"eth0": {In: f.n * 1000, Out: f.n * 10}},
	}, err
}

func TestSamplerSeries(t *testing.T) {
	s := &Sampler{src: &fakeSource{}}
	if got := s.Stop(); got != nil {
		t.Fatalf("Stop before Start = %v, want nil", got)
	}
	if err := s.Start(context.Background(), 0); err == nil {
		t.Fatal("Start with zero interval succeeded")
	}
	if err := s.Start(context.Background(), 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(context.Background(), 5*time.Millisecond); err == nil {
		t.Fatal("second Start succeeded")
	}
	time.Sleep(60 * time.Millisecond)
	got := s.Stop()
	if len(got) < 2 {
		t.Fatalf("got %d samples, want several", len(got))
	}
	for i, smp := range got {
		if smp.CPUPct != 25 {
			t.Errorf("sample %d CPUPct = %v, want 25", i, smp.CPUPct)
		}
		if smp.Net["eth0"].RxBps <= 0 {
			t.Errorf("sample %d eth0 = %+v, want positive rx", i, smp.Net["eth0"])
		}
		if i > 0 && !smp.At.After(got[i-1].At) {
			t.Errorf("sample %d not after sample %d", i, i-1)
		}
	}
	if err := s.Err(); err == nil || err.Error() != "disk counters: boom" {
		t.Errorf("Err = %v, want the first read error", err)
	}
	if again := s.Stop(); len(again) != len(got) {
		t.Errorf("second Stop returned %d samples, want %d", len(again), len(got))
	}
}

func TestSamplerStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Sampler{src: &fakeSource{}}
	if err := s.Start(ctx, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	cancel()
	done := make(chan []Sample)
	go func() { done <- s.Stop() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Stop did not return after the context ended")
	}
}

func TestLocalSamplerSmoke(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("local counters are checked on Linux")
	}
	s := NewSampler()
	if err := s.Start(context.Background(), 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	sink = burn(180 * time.Millisecond)
	got := s.Stop()
	if err := s.Err(); err != nil {
		t.Logf("read error (tolerated): %v", err)
	}
	if len(got) < 2 {
		t.Fatalf("got %d samples in 180ms at 50ms, want at least 2", len(got))
	}
	for i, smp := range got {
		if smp.CPUPct < 0 || smp.CPUPct > 100 || smp.MemTotalBytes == 0 || smp.MemUsedBytes > smp.MemTotalBytes {
			t.Errorf("sample %d = %+v", i, smp)
		}
		if _, ok := smp.Net["lo"]; ok && len(smp.Net) > 1 {
			t.Errorf("sample %d keeps lo next to other interfaces: %v", i, smp.Net)
		}
	}
}

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
