package monitor

import (
	"testing"
	"time"
)

func TestRates(t *testing.T) {
	t0 := time.Unix(0, 0)
	a := Counters{
		At:  t0,
		CPU: CPUTimes{Busy: 100, Idle: 300},
		Net: map[string]IOBytes{"lo": {0, 0}, "eth0": {1000, 2000}, "gone0": {1, 1}, "wrap0": {500, 500}},
		Disk: map[string]IOBytes{
			"sda": {0, 0}, "sda1": {0, 0}, "nvme0n1": {0, 0}, "nvme0n1p2": {0, 0}, "loop0": {0, 0}, "dm-0": {0, 0},
		},
	}
	b := Counters{
		At:            t0.Add(2 * time.Second),
		CPU:           CPUTimes{Busy: 200, Idle: 400},
		MemUsedBytes:  3 << 30,
		MemTotalBytes: 8 << 30,
		Net:           map[string]IOBytes{"lo": {9000, 9000}, "eth0": {5000, 2200}, "new0": {7, 7}, "wrap0": {10, 900}},
		Disk: map[string]IOBytes{
			"sda": {4096, 8192}, "sda1": {4096, 8192}, "nvme0n1": {2048, 0}, "nvme0n1p2": {2048, 0}, "loop0": {1, 1}, "dm-0": {4096, 8192},
		},
	}
	s := rates(a, b)
	if s.At != b.At || s.CPUPct != 50 || s.MemUsedBytes != 3<<30 || s.MemTotalBytes != 8<<30 {
		t.Errorf("sample header = %+v", s)
	}
	wantNet := map[string]NetRate{"eth0": {RxBps: 2000, TxBps: 100}, "wrap0": {RxBps: 0, TxBps: 200}}
	if len(s.Net) != len(wantNet) {
		t.Errorf("Net = %v, want %v", s.Net, wantNet)
	}
	for k, w := range wantNet {
		if s.Net[k] != w {
			t.Errorf("Net[%s] = %+v, want %+v", k, s.Net[k], w)
		}
	}
	wantDisk := map[string]DiskRate{"sda": {ReadBps: 2048, WriteBps: 4096}, "nvme0n1": {ReadBps: 1024}, "dm-0": {ReadBps: 2048, WriteBps: 4096}}
	if len(s.Disk) != len(wantDisk) {
		t.Errorf("Disk = %v, want %v", s.Disk, wantDisk)
	}
	for k, w := range wantDisk {
		if s.Disk[k] != w {
			t.Errorf("Disk[%s] = %+v, want %+v", k, s.Disk[k], w)
		}
	}
}

func TestRatesLoopbackOnly(t *testing.T) {
	t0 := time.Unix(0, 0)
	a := Counters{At: t0, Net: map[string]IOBytes{"lo": {0, 0}}}
	b := Counters{At: t0.Add(time.Second), Net: map[string]IOBytes{"lo": {100, 50}}}
	if got := rates(a, b).Net["lo"]; got != (NetRate{RxBps: 100, TxBps: 50}) {
		t.Errorf("lo alone: %+v, want it kept", got)
	}
}

func TestSkipDisk(t *testing.T) {
	for name, skip := range map[string]bool{
		"sda": false, "sdab": false, "vdb": false, "xvda": false, "nvme0n1": false, "mmcblk0": false,
		"dm-0": false, "md127": false,
		"sda1": true, "sdab12": true, "vdb2": true, "xvda1": true, "hda3": true, "nvme0n1p1": true,
		"mmcblk0p2": true, "loop7": true, "ram0": true, "zram0": true, "fd0": true, "sr0": true,
	} {
		if got := skipDisk.MatchString(name); got != skip {
			t.Errorf("skipDisk(%q) = %v, want %v", name, got, skip)
		}
	}
}
