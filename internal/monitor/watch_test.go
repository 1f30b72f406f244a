package monitor

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"benchpress/internal/results"
)

// nodePage is a node_exporter + process-exporter page whose counters grow
// with n: 1 busy + 3 idle CPU seconds (25 % busy over 2 cpus), 1000 B/s
// received on eth0, 4096 B/s written on vda (util 50 %), and the group
// "mariadbd" using 0.5 CPU seconds per step.
func nodePage(n int) string {
	var b strings.Builder
	f := float64(n)
	for _, cpu := range []string{"0", "1"} {
		fmt.Fprintf(&b, "node_cpu_seconds_total{cpu=%q,mode=\"user\"} %g\n", cpu, 0.4*f)
		fmt.Fprintf(&b, "node_cpu_seconds_total{cpu=%q,mode=\"system\"} %g\n", cpu, 0.1*f)
		fmt.Fprintf(&b, "node_cpu_seconds_total{cpu=%q,mode=\"idle\"} %g\n", cpu, 1.25*f)
		fmt.Fprintf(&b, "node_cpu_seconds_total{cpu=%q,mode=\"iowait\"} %g\n", cpu, 0.25*f)
	}
	b.WriteString("node_memory_MemTotal_bytes 8e+09\nnode_memory_MemAvailable_bytes 6e+09\n")
	fmt.Fprintf(&b, "node_network_receive_bytes_total{device=\"eth0\"} %g\nnode_network_transmit_bytes_total{device=\"eth0\"} %g\n", 1000*f, 10*f)
	fmt.Fprintf(&b, "node_network_receive_bytes_total{device=\"lo\"} %g\nnode_network_transmit_bytes_total{device=\"lo\"} %g\n", 500*f, 500*f)
	// A container's plumbing: the same bytes again on docker0 and the veth.
	fmt.Fprintf(&b, "node_network_receive_bytes_total{device=\"docker0\"} %g\nnode_network_transmit_bytes_total{device=\"docker0\"} %g\n", 1000*f, 10*f)
	fmt.Fprintf(&b, "node_network_receive_bytes_total{device=\"veth1a2b\"} %g\nnode_network_transmit_bytes_total{device=\"veth1a2b\"} %g\n", 10*f, 1000*f)
	fmt.Fprintf(&b, "node_disk_read_bytes_total{device=\"vda\"} 0\nnode_disk_written_bytes_total{device=\"vda\"} %g\n", 4096*f)
	fmt.Fprintf(&b, "node_disk_io_time_seconds_total{device=\"vda\"} %g\n", 0.5*f)
	// An LVM volume on vda: its row is kept, its I/O (vda's) not counted twice.
	fmt.Fprintf(&b, "node_disk_read_bytes_total{device=\"dm-0\"} 0\nnode_disk_written_bytes_total{device=\"dm-0\"} %g\n", 4096*f)
	fmt.Fprintf(&b, "namedprocess_namegroup_cpu_seconds_total{groupname=\"mariadbd\",mode=\"user\"} %g\n", 0.4*f)
	fmt.Fprintf(&b, "namedprocess_namegroup_cpu_seconds_total{groupname=\"mariadbd\",mode=\"system\"} %g\n", 0.1*f)
	b.WriteString("namedprocess_namegroup_memory_bytes{groupname=\"mariadbd\",memtype=\"resident\"} 1e+08\n")
	b.WriteString("namedprocess_namegroup_memory_bytes{groupname=\"mariadbd\",memtype=\"virtual\"} 9e+08\n")
	b.WriteString("namedprocess_namegroup_num_procs{groupname=\"mariadbd\"} 1\n")
	return b.String()
}

// at builds readings one second apart from the pages of n = 0, 1, 2...;
// fail marks the readings that are errors.
func readingsOf(t *testing.T, t0 time.Time, count int, fail map[int]bool) []reading {
	t.Helper()
	var rs []reading
	for i := 0; i < count; i++ {
		at := t0.Add(time.Duration(i) * time.Second)
		if fail[i] {
			rs = append(rs, reading{at: at, err: fmt.Errorf("scrape http://db:9100/metrics: connection refused")})
			continue
		}
		fams, err := parseFamilies(strings.NewReader(nodePage(i)))
		if err != nil {
			t.Fatal(err)
		}
		c, err := nodeCounters(fams)
		if err != nil {
			t.Fatal(err)
		}
		c.At = at
		g, _ := procCounters(fams)
		rs = append(rs, reading{at: at, counters: &c, procs: g})
	}
	return rs
}

func TestSummarizeHost(t *testing.T) {
	t0 := time.Unix(1000, 0)
	spec := HostSpec{Name: "db", Role: "storage", URLs: []string{"http://db:9100/metrics"}}
	tests := []struct {
		name      string
		fail      map[int]bool
		samples   int
		gaps      int
		gapFromTo [2]float64
	}{
		{name: "all answered", samples: 10},
		{name: "stops answering mid-run", fail: map[int]bool{4: true, 5: true, 6: true}, samples: 6, gaps: 1, gapFromTo: [2]float64{3, 7}},
		{name: "never comes back", fail: map[int]bool{8: true, 9: true, 10: true}, samples: 7, gaps: 1, gapFromTo: [2]float64{7, 10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs := readingsOf(t, t0, 11, tc.fail)
			h, procs := summarizeHost(spec, rs, t0, t0.Add(10*time.Second))
			if h.Samples != tc.samples || len(h.Gaps) != tc.gaps {
				t.Fatalf("samples %d gaps %+v, want %d and %d", h.Samples, h.Gaps, tc.samples, tc.gaps)
			}
			if tc.gaps > 0 {
				g := h.Gaps[0]
				if g.FromS != tc.gapFromTo[0] || g.ToS != tc.gapFromTo[1] || !strings.Contains(g.Error, "connection refused") {
					t.Errorf("gap = %+v, want %v with the error", g, tc.gapFromTo)
				}
			}
			// Rates do not depend on the gaps: a gap is left out, not zero.
			if h.CPUPct != 25 || h.UserPct != 20 || h.SysPct != 5 || h.IowaitPct != 12.5 || h.Cores != 2 {
				t.Errorf("cpu = %.1f user %.1f sys %.1f iowait %.1f cores %d, want 25/20/5/12.5 on 2", h.CPUPct, h.UserPct, h.SysPct, h.IowaitPct, h.Cores)
			}
			if h.NetRxBps != 1000 || h.NetTxBps != 10 || h.LoopbackRxBps != 500 || h.DiskWriteBps != 4096 || h.DiskUtilPct != 50 {
				t.Errorf("net %v/%v lo %v disk %v util %v", h.NetRxBps, h.NetTxBps, h.LoopbackRxBps, h.DiskWriteBps, h.DiskUtilPct)
			}
			if n, ok := h.Net["docker0"]; !ok || n.InBps != 1000 {
				t.Errorf("docker0's own row %+v (present %v), want in 1000", n, ok)
			}
			if d, ok := h.Disk["dm-0"]; !ok || d.OutBps != 4096 {
				t.Errorf("dm-0's own row %+v (present %v), want out 4096", d, ok)
			}
			if h.MemUsedBytes != 2e9 || h.MemTotalBytes != 8e9 {
				t.Errorf("memory %d of %d", h.MemUsedBytes, h.MemTotalBytes)
			}
			if len(procs) != 1 || procs[0].Name != "mariadbd" || procs[0].CPUCores != 0.5 || procs[0].RSSBytes != 1e8 || procs[0].Procs != 1 {
				t.Errorf("procs = %+v", procs)
			}
			// The series has each interval the mean was made of.
			if p := procs[0]; len(p.Series) != p.Samples || p.Series[0] != (results.ProcPoint{T: 1, DurS: 1, Cores: 0.5}) {
				t.Errorf("process series = %+v over %d samples", p.Series, p.Samples)
			}
		})
	}
}

// TestSummarizeHostEdges: intervals that straddle the window's edges
// (long scrape intervals) are left out while others lie inside it, so the
// idle time before and after a run does not dilute the window's figures;
// a window shorter than every interval still gets one by its midpoint.
func TestSummarizeHostEdges(t *testing.T) {
	t0 := time.Unix(1000, 0)
	// Both cores busy from 1 s to 11 s, idle otherwise; readings every 2 s.
	busyAt := func(sec float64) float64 { return 2 * max(0, min(sec, 11)-1) }
	var rs []reading
	for sec := 0.0; sec <= 12; sec += 2 {
		at := t0.Add(time.Duration(sec * float64(time.Second)))
		c := Counters{At: at, CPU: CPUTimes{Busy: busyAt(sec), Idle: 2*sec - busyAt(sec), Cores: 2}}
		rs = append(rs, reading{at: at, counters: &c})
	}
	spec := HostSpec{Name: "db"}
	tests := []struct {
		name     string
		from, to float64
		wantCPU  float64
		samples  int
	}{
		{"edges straddled: inside intervals only", 1, 11, 100, 4},
		{"window inside one interval: by midpoint", 4.5, 5.5, 100, 1},
	}
	for _, tc := range tests {
		h, _ := summarizeHost(spec, rs, t0.Add(time.Duration(tc.from*float64(time.Second))), t0.Add(time.Duration(tc.to*float64(time.Second))))
		if h.CPUPct != tc.wantCPU || h.Samples != tc.samples {
			t.Errorf("%s: CPU %.1f %% over %d samples, want %.1f over %d", tc.name, h.CPUPct, h.Samples, tc.wantCPU, tc.samples)
		}
	}
}

// TestProcCountersPSS: process-exporter's proportional set size, when it
// gathers smaps, is the group's RSS (shared pages once), whichever order
// the memory types come in; the plain resident sum otherwise.
func TestProcCountersPSS(t *testing.T) {
	const cpu = "namedprocess_namegroup_cpu_seconds_total{groupname=\"postgres\",mode=\"user\"} 1\n"
	res := "namedprocess_namegroup_memory_bytes{groupname=\"postgres\",memtype=\"resident\"} 9e+10\n"
	pss := "namedprocess_namegroup_memory_bytes{groupname=\"postgres\",memtype=\"proportionalResident\"} 2e+09\n"
	for _, tc := range []struct {
		name, page string
		want       uint64
	}{
		{"resident only", cpu + res, 9e10},
		{"pss after resident", cpu + res + pss, 2e9},
		{"pss before resident", cpu + pss + res, 2e9},
	} {
		fams, err := parseFamilies(strings.NewReader(tc.page))
		if err != nil {
			t.Fatal(err)
		}
		g, ok := procCounters(fams)
		if !ok || g["postgres"].RSSBytes != tc.want {
			t.Errorf("%s: RSS %d, want %d", tc.name, g["postgres"].RSSBytes, tc.want)
		}
	}
}

// TestSummarizeProcsOwnInstant: a host's process page is dated by its own
// request, not by the node page's: process-exporter answers late and
// unevenly (0.1-0.4 s idle, seconds when loaded). A group using exactly
// 0.5 core whose page is read 0.1-0.9 s after the node page reads 0.5 in
// every interval; dated by the node page it would swing from 0.1 to 0.9.
// The slowest answer is kept, and noted when it makes the window's rates
// approximate.
func TestSummarizeProcsOwnInstant(t *testing.T) {
	t0 := time.Unix(1000, 0)
	lag := []float64{0.1, 0.9, 0.1, 0.9, 0.5, 0.1, 0.9, 0.3, 0.7, 0.1, 0.5}
	var rs []reading
	for i := range lag {
		at := t0.Add(time.Duration(i) * time.Second)
		pat := at.Add(time.Duration(lag[i] * float64(time.Second)))
		secs := pat.Sub(t0).Seconds()
		c := Counters{At: at, CPU: CPUTimes{Busy: float64(i), Idle: float64(i), Cores: 2}}
		rs = append(rs, reading{at: at, counters: &c, procsAt: pat, answer: time.Duration(2*lag[i]*1000) * time.Millisecond,
			procs: map[string]ProcGroup{"postgres": {CPUS: 0.5 * secs, Procs: 3}}})
	}
	spec := HostSpec{Name: "db", URLs: []string{"http://db:9100/metrics", "http://db:9256/metrics"}}
	h, procs := summarizeHost(spec, rs, t0, t0.Add(10*time.Second))
	if len(procs) != 1 || procs[0].CPUCores != 0.5 || procs[0].CPUMaxCores != 0.5 {
		t.Fatalf("procs = %+v, want 0.5 core mean and max", procs)
	}
	for _, p := range procs[0].Series {
		if p.Cores != 0.5 {
			t.Errorf("interval ending at %.3f s over %.3f s: %.3f cores, want 0.5", p.T, p.DurS, p.Cores)
		}
	}
	if h.AnswerMaxMS != 1800 {
		t.Errorf("answer max %v ms, want 1800", h.AnswerMaxMS)
	}
	tests := []struct {
		window time.Duration
		want   string
	}{
		{10 * time.Second, "watched host db: its exporter took up to 1.8 s to answer, so each reading's instant is known to within 0.9 s and its rates over the 10 s window to within about 18 %"},
		{60 * time.Second, ""}, // 3 %: below answerNoteAt
	}
	for _, tc := range tests {
		if got := answerNote(h, tc.window); got != tc.want {
			t.Errorf("window %v: note %q, want %q", tc.window, got, tc.want)
		}
	}
}

// TestStealNote: a host whose hypervisor took its cores carries a note
// from stealNoteAt on, with the stolen seconds; node_exporter's "steal"
// mode is read as steal.
func TestStealNote(t *testing.T) {
	t0 := time.Unix(1000, 0)
	spec := HostSpec{Name: "load1", Role: "load", URLs: []string{"http://load1:9100/metrics"}}
	tests := []struct {
		name     string
		stealS   []float64 // stolen seconds (both cores together) in each 1 s interval
		wantNote string    // "" for none
		wantMax  float64
	}{
		{name: "none", stealS: make([]float64, 10)},
		{name: "a little, below the bar", stealS: []float64{0, 0.02, 0, 0, 0, 0, 0, 0, 0, 0}, wantMax: 1},
		{name: "one 100 ms stall", stealS: []float64{0, 0, 0, 0.1, 0, 0, 0, 0, 0, 0}, wantMax: 5,
			wantNote: "watched host load1: the hypervisor took 0.10 s of its CPU time (steal 0.50 % of the window, up to 5.0 % in one interval)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var rs []reading
			var stolen float64
			for i := 0; i <= len(tc.stealS); i++ {
				if i > 0 {
					stolen += tc.stealS[i-1]
				}
				var b strings.Builder
				for _, cpu := range []string{"0", "1"} {
					fmt.Fprintf(&b, "node_cpu_seconds_total{cpu=%q,mode=\"user\"} %g\n", cpu, 0.5*float64(i))
					fmt.Fprintf(&b, "node_cpu_seconds_total{cpu=%q,mode=\"steal\"} %g\n", cpu, stolen/2)
					fmt.Fprintf(&b, "node_cpu_seconds_total{cpu=%q,mode=\"idle\"} %g\n", cpu, 0.5*float64(i)-stolen/2)
				}
				fams, err := parseFamilies(strings.NewReader(b.String()))
				if err != nil {
					t.Fatal(err)
				}
				c, err := nodeCounters(fams)
				if err != nil {
					t.Fatal(err)
				}
				c.At = t0.Add(time.Duration(i) * time.Second)
				rs = append(rs, reading{at: c.At, counters: &c})
			}
			h, _ := summarizeHost(spec, rs, t0, t0.Add(10*time.Second))
			if h.StealMaxPct != tc.wantMax {
				t.Errorf("steal max %v %%, want %v", h.StealMaxPct, tc.wantMax)
			}
			got := stealNote(h, 10*time.Second)
			if (tc.wantNote == "") != (got == "") || !strings.HasPrefix(got, tc.wantNote) {
				t.Errorf("note %q, want %q", got, tc.wantNote)
			}
		})
	}
}

// TestWatchHostStopsAnswering runs a real Watcher against an exporter that
// dies mid-run: sampling goes on, the gap is recorded and a note says so.
func TestWatchHostStopsAnswering(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := n.Add(1)
		if i >= 5 && i < 9 {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, nodePage(int(i)))
	}))
	defer srv.Close()
	start := time.Now()
	w, err := StartWatch(context.Background(), WatchConfig{Interval: 40 * time.Millisecond, Hosts: []HostSpec{
		{Name: "db", Role: "storage", URLs: []string{srv.URL + "/metrics"}},
		{Name: "load", Role: "load"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(600 * time.Millisecond)
	w.Stop()
	sum, notes := w.Summary(start, time.Now())
	if len(sum.Hosts) != 2 {
		t.Fatalf("hosts = %+v", sum.Hosts)
	}
	db := sum.Hosts[0]
	if len(db.Gaps) != 1 || !strings.Contains(db.Gaps[0].Error, "503") || db.Samples < 3 {
		t.Errorf("db gaps %+v samples %d, want one gap with the HTTP status and samples around it", db.Gaps, db.Samples)
	}
	// The local host may add a steal note on a busy hypervisor.
	dbNotes := 0
	for _, n := range notes {
		if strings.Contains(n, "db did not answer") {
			dbNotes++
		} else if !strings.Contains(n, "hypervisor took") {
			dbNotes = -100
		}
	}
	if dbNotes != 1 {
		t.Errorf("notes = %q, want one for db (and at most a steal note)", notes)
	}
	if load := sum.Hosts[1]; load.Samples < 5 || load.Source != "local" || len(load.Gaps) != 0 {
		t.Errorf("local host = %+v", load)
	}
}

func TestStartWatchRejectsBadHosts(t *testing.T) {
	for _, hs := range [][]HostSpec{{{Name: ""}}, {{Name: "a"}, {Name: "a"}}} {
		if _, err := StartWatch(context.Background(), WatchConfig{Hosts: hs}); err == nil {
			t.Errorf("StartWatch(%+v) succeeded", hs)
		}
	}
}

func TestParseProcPidStat(t *testing.T) {
	line := "3142 (maria (db)) S 1 3142 3142 0 -1 4194560 9795 0 0 0 1658 661 0 0 20 0 12 0 1234 1000000 2500 18446744073709551615\n"
	st, err := parseProcPidStat([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if string(st.comm) != "maria (db)" || st.cpuTicks != 2319 || st.startTime != 1234 || st.rssPages != 2500 {
		t.Errorf("got %+v", st)
	}
	if _, err := parseProcPidStat([]byte("1 (x) S 1 2")); err == nil {
		t.Error("short line parsed")
	}
}
