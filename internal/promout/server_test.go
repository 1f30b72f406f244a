package promout

import (
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

// Scrape GETs url and parses the text page (exported for the CLI's tests).
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// find returns the value of the series of family name whose labels include want.
func find(fams map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	for _, m := range fams[name].GetMetric() {
		match := true
		for k, v := range want {
			found := false
			for _, l := range m.GetLabel() {
				if l.GetName() == k && l.GetValue() == v {
					found = true
				}
			}
			match = match && found
		}
		if match {
			switch {
			case m.Counter != nil:
				return m.GetCounter().GetValue(), true
			case m.Gauge != nil:
				return m.GetGauge().GetValue(), true
			}
		}
	}
	return 0, false
}

func TestListenRefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "10.1.2.3:9400", "nonsense"} {
		if s, err := Listen(addr, false); err == nil {
			s.Close()
			t.Errorf("Listen(%q) succeeded", addr)
		}
	}
}

func TestServeLiveSeries(t *testing.T) {
	s, err := Listen("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url := "http://" + s.Addr() + "/metrics"
	s.Live.Begin("tpcc", []string{"new_order", "payment"}, 8)
	for tick := 0; tick < 3; tick++ {
		snap := metrics.NewSnapshot(2, 0)
		snap.Counts[0].OK = 90
		snap.Counts[0].Rollback = 10
		snap.Counts[0].Errs[target.ClassDeadlock] = 5
		snap.Counts[1].OK = 100
		snap.Counts[1].Retries = 3
		snap.Counts[1].RetryErrs[target.ClassLockTimeout] = 3
		snap.OKHist[0] = metrics.NewHistogram()
		for i := int64(1); i <= 100; i++ {
			_ = snap.OKHist[0].RecordValue(i * 1000) // 1..100 ms
		}
		s.Live.Tick(snap, time.Second, tick > 0)
	}
	fams := scrape(t, url)
	checks := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"benchpress_ops_total", map[string]string{"op": "new_order", "outcome": "ok"}, 270},
		{"benchpress_ops_total", map[string]string{"op": "new_order", "outcome": "rollback"}, 30},
		{"benchpress_ops_total", map[string]string{"op": "new_order", "outcome": "error"}, 15},
		{"benchpress_errors_total", map[string]string{"op": "new_order", "class": target.ClassDeadlock.String()}, 15},
		{"benchpress_retries_total", map[string]string{"op": "payment", "class": target.ClassLockTimeout.String()}, 9},
		{"benchpress_op_rate", map[string]string{"op": "payment"}, 100},
		{"benchpress_terminals", nil, 8},
		{"benchpress_phase", map[string]string{"phase": "measure"}, 1},
		{"benchpress_success_ratio", map[string]string{"workload": "tpcc"}, 600.0 / 615},
	}
	for _, c := range checks {
		got, ok := find(fams, c.name, c.labels)
		if !ok || got != c.want {
			t.Errorf("%s%v = %v (found %v), want %v", c.name, c.labels, got, ok, c.want)
		}
	}
	p99, ok := find(fams, "benchpress_latency_seconds", map[string]string{"op": "new_order", "quantile": "0.99"})
	if !ok || p99 < 0.098 || p99 > 0.1 {
		t.Errorf("p99 = %v, want about 0.099 s", p99)
	}
	if _, ok := find(fams, "process_cpu_seconds_total", nil); !ok {
		t.Error("no process_cpu_seconds_total (the driver's own CPU)")
	}
	s.Live.End()
	fams = scrape(t, url)
	if v, _ := find(fams, "benchpress_terminals", nil); v != 0 {
		t.Errorf("terminals after End = %v", v)
	}
	// After the run: no rate, no latency of the run before as current.
	if v, ok := find(fams, "benchpress_op_rate", map[string]string{"op": "payment"}); !ok || v != 0 {
		t.Errorf("op rate after End = %v (found %v), want 0", v, ok)
	}
	if _, ok := find(fams, "benchpress_latency_seconds", map[string]string{"op": "new_order", "quantile": "0.99"}); ok {
		t.Error("latency quantiles of the ended run still served")
	}
	if v, ok := find(fams, "benchpress_ops_total", map[string]string{"op": "new_order", "outcome": "ok"}); !ok || v != 270 {
		t.Errorf("counter after End = %v, want 270 (counters stay)", v)
	}
}

// op_rate is a rate: a tick's count over its length (a phase edge's tick
// of 0.2 s, a drain's of seconds), not the count.
func TestOpRateIsPerSecond(t *testing.T) {
	tests := []struct {
		count int64
		dur   time.Duration
		want  float64
	}{
		{100, 200 * time.Millisecond, 500},
		{1000, time.Second, 1000},
		{2600, 26 * time.Second, 100},
	}
	for _, tc := range tests {
		l := NewLive()
		l.Begin("w", []string{"op"}, 4)
		snap := metrics.NewSnapshot(1, 0)
		snap.Counts[0].OK = tc.count
		l.Tick(snap, tc.dur, true)
		if got := l.state[opKey{"w", "op"}].lastRate; got != tc.want {
			t.Errorf("%d in %v: rate %v, want %v", tc.count, tc.dur, got, tc.want)
		}
	}
}

// The success ratio is 0 when nothing completed in the window of a run
// that had been completing (an outage: an alert on the ratio fires), and
// NaN (no data) when the run is too slow to expect a completion in it or
// has ended.
func TestSuccessRatioInAnOutage(t *testing.T) {
	tests := []struct {
		name   string
		before int64 // completions per tick before the empty ticks
		empty  int
		end    bool
		want   float64 // -1: NaN
	}{
		{"outage after 100/s", 100, WindowTicks, false, 0},
		{"partly empty window", 100, WindowTicks - 1, false, 1},
		{"slow run: 1 per 5 s", 0, WindowTicks, false, -1},
		{"ended run", 100, WindowTicks, true, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := NewLive()
			l.Begin("w", []string{"op"}, 4)
			for i := 0; i < 30; i++ {
				snap := metrics.NewSnapshot(1, 0)
				snap.Counts[0].OK = tc.before
				if tc.before == 0 && i%5 == 0 {
					snap.Counts[0].OK = 1
				}
				l.Tick(snap, time.Second, true)
			}
			for i := 0; i < tc.empty; i++ {
				l.Tick(metrics.NewSnapshot(1, 0), time.Second, true)
			}
			if tc.end {
				l.End()
			}
			reg := prometheus.NewRegistry()
			reg.MustRegister(l)
			gathered, err := reg.Gather()
			if err != nil {
				t.Fatal(err)
			}
			fams := map[string]*dto.MetricFamily{}
			for _, f := range gathered {
				fams[f.GetName()] = f
			}
			got, ok := find(fams, "benchpress_success_ratio", map[string]string{"workload": "w"})
			switch {
			case !ok:
				t.Fatal("no success ratio served")
			case tc.want < 0 && !math.IsNaN(got), tc.want >= 0 && got != tc.want:
				t.Fatalf("success ratio %v, want %v (-1: NaN)", got, tc.want)
			}
		})
	}
}
