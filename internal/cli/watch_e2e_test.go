package cli

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"benchpress/internal/results"
	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// Exporters started by scripts/exporters-setup.sh.
const (
	nodeExporterURL    = "http://127.0.0.1:9100/metrics"
	processExporterURL = "http://127.0.0.1:9256/metrics"
)

// needExporters skips (fails with BP_REQUIRE_DBS=1) when the local
// exporters do not answer.
func needExporters(t *testing.T) {
	t.Helper()
	for _, u := range []string{nodeExporterURL, processExporterURL} {
		c := http.Client{Timeout: 10 * time.Second}
		resp, err := c.Get(u)
		if err == nil {
			resp.Body.Close()
			continue
		}
		if os.Getenv(testdb.EnvRequire) == "1" {
			t.Fatalf("%s does not answer (run scripts/exporters-setup.sh): %v", u, err)
		}
		t.Skipf("%s does not answer (run scripts/exporters-setup.sh): %v", u, err)
	}
}

// flakyExporter serves a small node_exporter page (counters growing with
// time) but answers 503 from 2.5 s to 4 s after its first request: a
// watched host that stops answering mid-run (the window opens after the 1 s
// warm-up) and comes back.
func flakyExporter(t *testing.T) string {
	var first atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now().UnixNano()
		first.CompareAndSwap(0, now)
		since := time.Duration(now - first.Load())
		if since >= 2500*time.Millisecond && since < 4*time.Second {
			http.Error(w, "exporter down", http.StatusServiceUnavailable)
			return
		}
		s := since.Seconds()
		fmt.Fprintf(w, "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"} %g\nnode_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} %g\n", s/2, s/2)
		fmt.Fprintf(w, "node_network_receive_bytes_total{device=\"eth0\"} %g\nnode_network_transmit_bytes_total{device=\"eth0\"} %g\n", 1000*s, 1000*s)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/metrics"
}

// freeAddr returns a loopback address with a port free right now.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// pollMetrics scrapes url until it serves a non-zero benchpress_ops_total
// during the measurement window, and returns that parsed page's figures
// (sum of ok ops, terminals), or an error when the run ended first.
func pollMetrics(url string, stop <-chan struct{}) (ops, terminals float64, err error) {
	last := fmt.Errorf("never answered")
	for {
		select {
		case <-stop:
			return 0, 0, last
		case <-time.After(200 * time.Millisecond):
		}
		resp, err := http.Get(url)
		if err != nil {
			last = err
			continue
		}
		p := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := p.TextToMetricFamilies(resp.Body)
		resp.Body.Close()
		if err != nil {
			return 0, 0, fmt.Errorf("parse: %w", err)
		}
		ops, terminals = 0, 0
		for _, m := range fams["benchpress_ops_total"].GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "outcome" && l.GetValue() == "ok" {
					ops += m.GetCounter().GetValue()
				}
			}
		}
		for _, m := range fams["benchpress_terminals"].GetMetric() {
			terminals = m.GetGauge().GetValue()
		}
		measuring := false
		for _, m := range fams["benchpress_phase"].GetMetric() {
			if m.GetLabel()[0].GetValue() == "measure" && m.GetGauge().GetValue() == 1 {
				measuring = true
			}
		}
		_, hasLatency := fams["benchpress_latency_seconds"]
		if ops > 0 && measuring && hasLatency {
			return ops, terminals, nil
		}
		last = fmt.Errorf("no ops yet (ops %v, measuring %v)", ops, measuring)
	}
}

// TestWatchSweep runs a short sysbench sweep on MariaDB and PostgreSQL
// watching the local host three ways: directly (gopsutil and /proc),
// through node_exporter + process-exporter, and through an exporter that
// stops answering mid-run; and scrapes --metrics-addr during the run.
func TestWatchSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: end-to-end sweeps skipped")
	}
	needExporters(t)
	for _, kind := range []target.Kind{target.MySQL, target.Postgres} {
		t.Run(string(kind), func(t *testing.T) {
			tg := testdb.For(t, kind, "cli_watch")
			url := urlOf(tg)
			server := map[target.Kind]string{target.MySQL: "mariadbd", target.Postgres: "postgres"}[kind]
			runCLI(t, nil, "sysbench", "cleanup", "oltp_read_write", "--target", url, "--tables", "1")
			if _, stderr, code := runCLI(t, nil, "sysbench", "prepare", "oltp_read_write", "--target", url,
				"--tables", "1", "--table-size", "2000"); code != 0 {
				t.Fatalf("prepare: exit %d: %s", code, stderr)
			}
			dir := t.TempDir()
			plan := filepath.Join(dir, "plan.yaml")
			os.WriteFile(plan, []byte(`name: watch
targets:
  db: "`+url+`"
defaults:
  workload: sysbench/oltp_read_write
  tables: 1
  table-size: 2000
  warmup: 1s
  duration: 5s
ladder: [2]
hosts:
  exporters: {role: storage, url: `+nodeExporterURL+`}
  procs: {role: storage, url: `+processExporterURL+`}
cases:
  - id: rw
    target: db
`), 0o644)
			addr := freeAddr(t)
			stop := make(chan struct{})
			type scrapeRes struct {
				ops, terms float64
				err        error
			}
			got := make(chan scrapeRes, 1)
			go func() {
				o, tm, err := pollMetrics("http://"+addr+"/metrics", stop)
				got <- scrapeRes{o, tm, err}
			}()
			out := filepath.Join(dir, "out")
			stdout, stderr, code := runCLI(t, nil, "sweep", plan, "--out", out, "--metrics-addr", addr,
				"--watch-interval", "500ms", "--watch", "flaky:storage="+flakyExporter(t))
			close(stop)
			if code != 0 {
				t.Fatalf("sweep: exit %d\n%s\n%s", code, stdout, stderr)
			}
			if m := <-got; m.err != nil || m.ops <= 0 || m.terms != 2 {
				t.Errorf("live metrics during the run: ops %v terminals %v err %v", m.ops, m.terms, m.err)
			}
			r, err := results.Read(filepath.Join(out, "rw", "2.json"))
			if err != nil {
				t.Fatal(err)
			}
			_, port, _ := net.SplitHostPort(tg.Endpoints[0])
			checkWatched(t, r, server, port)
			md, _ := os.ReadFile(filepath.Join(out, "report.md"))
			for _, want := range []string{"### Servers per step", "| exporters | storage |", "TPS per CPU core", "| " + server + " |",
				"no answer", "did not answer", "on disk", "charts/cpu-rw.svg", "charts/net-rw.svg"} {
				if !strings.Contains(string(md), want) {
					t.Errorf("report.md lacks %q", want)
				}
			}
		})
	}
}

// checkWatched compares the three views of the local host in one step.
//
// Tolerances: gopsutil and node_exporter both read /proc/stat,
// /proc/meminfo and /proc/net/dev; only their reading instants differ (the
// scrape's latency, a few ms, up to a sampling interval when a tick is
// skipped). Over a 5 s window with 500 ms samples the edge mismatch is at
// most one interval of ten, so means agree within about 10 % of the busy
// level; on this shared 2-core machine other load moves within a window,
// hence 8 CPU points absolute, 10 % of memory, and loopback traffic within
// 35 % or 64 KB/s. Process CPU: /proc and process-exporter both sum utime +
// stime of the same processes; 0.15 core absolute or 35 %.
//
// Locally a server with a second instance on the host (the MariaDB on 3307
// beside 3306) is the row named by its port; process-exporter's group sums
// every process of the name (the idle instance adds little CPU).
func checkWatched(t *testing.T, r *results.Run, server, port string) {
	t.Helper()
	if r.Watch == nil || len(r.Watch.Hosts) != 4 {
		t.Fatalf("watch = %+v", r.Watch)
	}
	// Node and process pages are separate hosts here, so that a slow
	// process-exporter (it walks all of /proc) cannot blank the node figures.
	local, ne, pe, flaky := r.Watch.Hosts[0], r.Watch.Hosts[1], r.Watch.Hosts[2], r.Watch.Hosts[3]
	if local.Source != "local" || ne.Name != "exporters" || pe.Name != "procs" || flaky.Name != "flaky" {
		t.Fatalf("hosts = %s, %s, %s, %s", local.Name, ne.Name, pe.Name, flaky.Name)
	}
	if pe.AnswerMaxMS <= 0 || local.AnswerMaxMS != 0 {
		t.Errorf("answer times: process-exporter %v ms, local %v ms", pe.AnswerMaxMS, local.AnswerMaxMS)
	}
	// A loaded exporter may take longer than the 500 ms interval: fewer
	// samples, each over its own span.
	if local.Samples < 6 || ne.Samples < 2 || local.CPUPct <= 0 || ne.CPUPct <= 0 {
		t.Errorf("samples %d/%d, CPU %.1f/%.1f", local.Samples, ne.Samples, local.CPUPct, ne.CPUPct)
	}
	if d := math.Abs(local.CPUPct - ne.CPUPct); d > 8 {
		t.Errorf("CPU: local %.1f %% vs node_exporter %.1f %% (differ by %.1f points)", local.CPUPct, ne.CPUPct, d)
	}
	if d := math.Abs(float64(local.MemUsedBytes) - float64(ne.MemUsedBytes)); d > 0.1*float64(local.MemUsedBytes) {
		t.Errorf("memory: local %d vs node_exporter %d", local.MemUsedBytes, ne.MemUsedBytes)
	}
	if d := math.Abs(local.LoopbackRxBps - ne.LoopbackRxBps); local.LoopbackRxBps <= 0 || d > max(64<<10, 0.35*local.LoopbackRxBps) {
		t.Errorf("loopback rx: local %.0f vs node_exporter %.0f B/s", local.LoopbackRxBps, ne.LoopbackRxBps)
	}
	if len(flaky.Gaps) == 0 || !strings.Contains(flaky.Gaps[0].Error, "503") {
		t.Errorf("flaky host gaps = %+v", flaky.Gaps)
	}
	found := false
	for _, n := range r.Notes {
		found = found || strings.Contains(n, "flaky did not answer")
	}
	if !found {
		t.Errorf("notes = %q, want the flaky host's gap", r.Notes)
	}
	proc := func(host string) *results.WatchedProcess {
		for i, p := range r.Watch.Processes {
			if p.Host == host && (p.Name == server || host == local.Name && p.Name == server+":"+port) {
				return &r.Watch.Processes[i]
			}
		}
		return nil
	}
	lp, ep := proc(local.Name), proc("procs")
	if lp == nil || ep == nil {
		t.Fatalf("no %s process figures: %+v", server, r.Watch.Processes)
	}
	if lp.CPUCores <= 0.01 || lp.CPUCores > float64(local.Cores) || lp.RSSBytes == 0 {
		t.Errorf("%s from /proc: %.3f cores, RSS %d", server, lp.CPUCores, lp.RSSBytes)
	}
	// A loaded process-exporter answers every 2-3 s, so its intervals
	// cover less of the window than /proc's; on a shared machine the
	// server's CPU moves within it. Compare over the exporter's intervals.
	// Its readings are dated to the middle of requests that took up to
	// AnswerMaxMS (it reads every process's smaps; seconds while other
	// tests load the machine): the ends of its span are known to within
	// half of that each, a rate over secs to within AnswerMaxMS/secs of
	// itself (CI rehearsal of cfab0a0: 0.648 vs 1.035 cores over 3.17 s).
	lc, ec, secs := sameSpan(lp.Series, ep.Series)
	dating := max(lc, ec) * pe.AnswerMaxMS / 1000 / max(secs, 0.5)
	if secs < 0.5 || math.Abs(lc-ec) > max(0.15, 0.35*lc)+dating {
		t.Errorf("%s CPU over the exporter's %.2f s: /proc %.3f vs process-exporter %.3f cores (window means %.3f, %.3f; the exporter answered in up to %.0f ms)",
			server, secs, lc, ec, lp.CPUCores, ep.CPUCores, pe.AnswerMaxMS)
	}
	db := r.Watch.Database
	if db == nil || db.Error != "" || db.ServerCommits <= 0 || db.ToolCommits <= 0 || db.Size == nil || db.Size.TotalBytes <= 0 {
		t.Fatalf("database figures = %+v", db)
	}
	// PostgreSQL counts per database (this test's own): the counts must
	// agree. MySQL's counters are server-wide and other tests share it.
	if db.Kind == "postgres" && db.CommitCheck != "agree" {
		t.Errorf("commit check: %s", db.CommitNote)
	}
	// PostgreSQL 15: read from a quiet start, the whole run is compared and
	// the server never counts fewer (the admin session's readings and
	// autovacuum's transactions in the run's database only add).
	if db.Kind == "postgres" && (db.CommitsOver != "run" || db.ServerCommits < db.ToolCommits) {
		t.Errorf("commit check over %q: %s", db.CommitsOver, db.CommitNote)
	}
}

// sameSpan is the mean CPU (cores) of two series of one process group over
// the seconds the second one's intervals cover, the first one's taken as
// constant within each of its intervals; secs is the span compared.
func sameSpan(a, b []results.ProcPoint) (aCores, bCores, secs float64) {
	var aCPU, bCPU float64
	for _, q := range b {
		from, to := q.T-q.DurS, q.T
		var covered, cpu float64
		for _, p := range a {
			if o := min(to, p.T) - max(from, p.T-p.DurS); o > 0 {
				covered += o
				cpu += o * p.Cores
			}
		}
		if covered < 0.9*q.DurS {
			continue // /proc did not read through this interval
		}
		aCPU += cpu
		bCPU += q.Cores * covered
		secs += covered
	}
	if secs == 0 {
		return 0, 0, 0
	}
	return aCPU / secs, bCPU / secs, secs
}
