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
)

// An exporter behind basic auth that fails: its password is in no error,
// gap or note the summary saves or shows.
func TestWatchErrorsHideExporterPassword(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	u := strings.Replace(srv.URL, "http://", "http://mon:S3cret@", 1) + "/metrics"
	start := time.Now()
	w, err := StartWatch(context.Background(), WatchConfig{Interval: 30 * time.Millisecond, Hosts: []HostSpec{{Name: "db", URLs: []string{u}}}})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	w.Stop()
	sum, notes := w.Summary(start, time.Now())
	all := fmt.Sprintf("%+v %q", sum.Hosts, notes)
	if strings.Contains(all, "S3cret") {
		t.Fatalf("the exporter's password is in the summary: %s", all)
	}
	if !strings.Contains(sum.Hosts[0].Error, "503") {
		t.Errorf("host error %q, want the HTTP status", sum.Hosts[0].Error)
	}
}

// A process-exporter page that fails costs the process groups only: the
// node page's host figures have no gap, the group has its own.
func TestWatchProcessPageFailsAlone(t *testing.T) {
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, l := range strings.Split(nodePage(int(time.Now().UnixMilli()/10)), "\n") {
			if !strings.HasPrefix(l, "namedprocess") {
				fmt.Fprintln(w, l)
			}
		}
	}))
	defer node.Close()
	var n atomic.Int64
	proc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if i := n.Add(1); i >= 4 && i < 8 {
			http.Error(w, "slow", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintf(w, "namedprocess_namegroup_cpu_seconds_total{groupname=\"postgres\",mode=\"user\"} %d\nnamedprocess_namegroup_num_procs{groupname=\"postgres\"} 3\n", n.Load())
	}))
	defer proc.Close()
	start := time.Now()
	w, err := StartWatch(context.Background(), WatchConfig{Interval: 30 * time.Millisecond, Hosts: []HostSpec{{Name: "db", URLs: []string{node.URL + "/metrics", proc.URL + "/metrics"}}}})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	w.Stop()
	sum, notes := w.Summary(start, time.Now())
	h := sum.Hosts[0]
	if len(h.Gaps) != 0 || h.Samples < 5 {
		t.Errorf("host gaps %+v samples %d: want node_exporter's figures whole", h.Gaps, h.Samples)
	}
	if len(sum.Processes) != 1 || len(sum.Processes[0].Gaps) != 1 || !strings.Contains(sum.Processes[0].Gaps[0].Error, "503") {
		t.Fatalf("processes %+v: want one group with one gap", sum.Processes)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "its process figures have 1 gap(s)") {
		t.Errorf("notes %q: want the process gap said", notes)
	}
}

// A host that stops answering near the window's end leaves a gap: its
// failed reading (dated to its request's start) may still fall after the
// window's end.
func TestSummarizeHostDiesAtTheEnd(t *testing.T) {
	t0 := time.Unix(1000, 0)
	rs := readingsOf(t, t0, 26, nil)
	rs = append(rs, reading{at: t0.Add(31 * time.Second), err: fmt.Errorf("scrape http://db:9100/metrics: timeout")})
	h, _ := summarizeHost(HostSpec{Name: "db", URLs: []string{"http://db:9100/metrics"}}, rs, t0, t0.Add(30*time.Second))
	if len(h.Gaps) != 1 || h.Gaps[0].FromS != 25 || h.Gaps[0].ToS != 30 {
		t.Fatalf("gaps %+v, want 25-30 s", h.Gaps)
	}
}

// Process intervals are chosen on the process page's own instants: with
// process-exporter answering 1.5 s after node_exporter, the node page's
// intervals would take one past the window's end (a group busy at one core
// through the window read 0.78).
func TestSummarizeProcsChosenOnOwnInstants(t *testing.T) {
	t0 := time.Unix(1000, 0)
	from, to := t0.Add(500*time.Millisecond), t0.Add(9200*time.Millisecond)
	var rs []reading
	for i := 0; i <= 4; i++ {
		at := t0.Add(time.Duration(3*i) * time.Second)
		pat := at.Add(1500 * time.Millisecond)
		busy := min(pat.Sub(t0).Seconds(), to.Sub(t0).Seconds()) // one core until the window's end
		c := Counters{At: at, CPU: CPUTimes{Busy: float64(i), Idle: float64(i), Cores: 2}}
		rs = append(rs, reading{at: at, counters: &c, procsAt: pat, procs: map[string]ProcGroup{"postgres": {CPUS: busy, Procs: 3}}})
	}
	_, procs := summarizeHost(HostSpec{Name: "db", URLs: []string{"http://db:9100/metrics"}}, rs, from, to)
	if len(procs) != 1 || procs[0].CPUCores != 1 {
		t.Fatalf("procs %+v, want 1 core", procs)
	}
}

// A counter that goes back (a reboot, a restarted exporter) leaves its
// interval out and counted, not averaged in as idle.
func TestSummarizeHostCounterReset(t *testing.T) {
	t0 := time.Unix(1000, 0)
	rs := readingsOf(t, t0, 11, nil)
	rs[6].counters.CPU = CPUTimes{Busy: 0.5, Idle: 1.5, Cores: 2}
	for i := 7; i < len(rs); i++ {
		c := *rs[i].counters
		c.CPU = CPUTimes{Busy: 0.5 + float64(i-6), Idle: 1.5 + 3*float64(i-6), Cores: 2}
		rs[i].counters = &c
	}
	for i := 6; i < len(rs); i++ {
		rs[i].procs = map[string]ProcGroup{"mariadbd": {CPUS: 0.5 * float64(i-6), Procs: 1}}
	}
	h, procs := summarizeHost(HostSpec{Name: "db", URLs: []string{"http://db:9100/metrics"}}, rs, t0, t0.Add(10*time.Second))
	if h.Resets != 1 || h.CPUPct != 25 {
		t.Errorf("resets %d cpu %.1f, want 1 and 25 %%", h.Resets, h.CPUPct)
	}
	if len(procs) != 1 || procs[0].CPUCores != 0.5 || procs[0].Resets != 1 {
		t.Errorf("procs %+v, want 0.5 core and 1 reset", procs)
	}
}

// Figures a page does not have are unknown, not zero: no disk family, no
// MemAvailable. A page of several hosts (a federation endpoint) is refused.
func TestNodeCountersMissingFamilies(t *testing.T) {
	page := strings.Join([]string{
		`node_cpu_seconds_total{cpu="0",mode="idle"} 10`,
		`node_cpu_seconds_total{cpu="0",mode="user"} 5`,
		`node_memory_MemTotal_bytes 8e+09`,
		`node_network_receive_bytes_total{device="eth0"} 100`,
		`node_network_transmit_bytes_total{device="eth0"} 100`,
	}, "\n") + "\n"
	fams, err := parseFamilies(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	c, err := nodeCounters(fams)
	if err != nil || c.MemTotalBytes != 0 || c.MemUsedBytes != 0 {
		t.Fatalf("counters %+v (%v): want memory unset without MemAvailable", c, err)
	}
	t0 := time.Unix(1000, 0)
	var rs []reading
	for i := 0; i < 4; i++ {
		c := c
		c.At = t0.Add(time.Duration(i) * time.Second)
		c.CPU.Busy += float64(i)
		c.CPU.Idle += float64(i)
		rs = append(rs, reading{at: c.At, counters: &c})
	}
	h, _ := summarizeHost(HostSpec{Name: "db", URLs: []string{"http://db:9100/metrics"}}, rs, t0, t0.Add(3*time.Second))
	if !h.NoDisk || h.NoNet || h.Samples != 3 {
		t.Errorf("no disk %v no net %v samples %d: want the disk figures unknown, the NIC's known", h.NoDisk, h.NoNet, h.Samples)
	}

	fed := `node_cpu_seconds_total{cpu="0",instance="a:9100",mode="idle"} 10` + "\n" + `node_cpu_seconds_total{cpu="0",instance="b:9100",mode="idle"} 10` + "\n"
	fams, _ = parseFamilies(strings.NewReader(fed))
	if _, err := nodeCounters(fams); err == nil || !strings.Contains(err.Error(), "2 hosts") {
		t.Errorf("federated page: err %v, want refused", err)
	}
}

// Linux bridges, VLAN sub-interfaces and other upper devices are left out
// of the NIC totals; physical interfaces are not.
func TestStackedNIC(t *testing.T) {
	for name, stacked := range map[string]bool{
		"eth0": false, "eno1": false, "ens3": false, "enp0s3": false, "wlan0": false,
		"br0": true, "vmbr0": true, "bridge0": true, "br-1a2b": true, "eno1.100": true, "vlan100": true,
		"team0": true, "bond0": true, "ovs-system": true, "cilium_host": true, "docker0": true, "veth9": true,
	} {
		if got := stackedNIC.MatchString(name); got != stacked {
			t.Errorf("%s: stacked %v, want %v", name, got, stacked)
		}
	}
}

// A process-exporter that fails through the whole window leaves a note
// (no process figures, with its error), not silence; the host's figures
// stand.
func TestWatchProcessPageNeverAnswers(t *testing.T) {
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, l := range strings.Split(nodePage(int(time.Now().UnixMilli()/10)), "\n") {
			if !strings.HasPrefix(l, "namedprocess") {
				fmt.Fprintln(w, l)
			}
		}
	}))
	defer node.Close()
	proc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer proc.Close()
	start := time.Now()
	w, err := StartWatch(context.Background(), WatchConfig{Interval: 30 * time.Millisecond, Hosts: []HostSpec{{Name: "db", URLs: []string{node.URL + "/metrics", proc.URL + "/metrics"}}}})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	w.Stop()
	sum, notes := w.Summary(start, time.Now())
	if h := sum.Hosts[0]; h.Samples < 3 || len(h.Gaps) != 0 || !strings.Contains(h.ProcessError, "503") {
		t.Errorf("host %+v: want its figures and the process page's error", h)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "watched host db: no process figures") {
		t.Errorf("notes %q: want the missing process figures said", notes)
	}
}
