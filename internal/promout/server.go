package promout

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sort"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

// Series names served; docs/grafana-dashboard.json reads them.
var (
	descOps = prometheus.NewDesc("benchpress_ops_total",
		"Operations (transactions) completed since benchpress started, by workload, op and outcome (ok, rollback: a rollback the workload counts as success, error).",
		[]string{"workload", "op", "outcome"}, nil)
	descErrors = prometheus.NewDesc("benchpress_errors_total",
		"Failed operations by workload, op and error class (deadlock, serialization, lock_timeout, lost_connection, constraint, other...): the attempt that ended the operation; retried attempts are in benchpress_retries_total.",
		[]string{"workload", "op", "class"}, nil)
	descRetries = prometheus.NewDesc("benchpress_retries_total",
		"Retried attempts (failed, then re-run) by workload, op and the class of the error that caused the retry (none: unknown).",
		[]string{"workload", "op", "class"}, nil)
	descRate = prometheus.NewDesc("benchpress_op_rate",
		"Operations completed per second in the last one-second tick, by workload and op.", []string{"workload", "op"}, nil)
	descLatency = prometheus.NewDesc("benchpress_latency_seconds",
		"Latency quantiles of successful operations over the last 10 s (HDR histogram, 3 significant digits), by workload and op.",
		[]string{"workload", "op", "quantile"}, nil)
	descSuccess = prometheus.NewDesc("benchpress_success_ratio",
		"Successful / attempted operations over the last 10 s (verdict input); 0 when nothing completed in them although the run's rate so far would have completed 10 (an outage), NaN when nothing was attempted otherwise.", []string{"workload"}, nil)
	descTerminals = prometheus.NewDesc("benchpress_terminals", "Terminals (threads) of the current run; 0 between runs.", nil, nil)
	descPhase     = prometheus.NewDesc("benchpress_phase", "1 for the current phase (idle, warmup, measure, done).", []string{"phase"}, nil)
	descRuns      = prometheus.NewDesc("benchpress_runs_total", "Runs (sweep steps) started.", nil, nil)
)

var quantiles = []struct {
	label string
	q     float64
}{{"0.5", 50}, {"0.9", 90}, {"0.95", 95}, {"0.99", 99}, {"0.999", 99.9}, {"1", 100}}

// Describe implements prometheus.Collector.
func (l *Live) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descOps, descErrors, descRetries, descRate, descLatency, descSuccess, descTerminals, descPhase, descRuns} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (l *Live) Collect(ch chan<- prometheus.Metric) {
	l.mu.Lock()
	defer l.mu.Unlock()
	keys := make([]opKey, 0, len(l.state))
	for k := range l.state {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].workload != keys[j].workload {
			return keys[i].workload < keys[j].workload
		}
		return keys[i].op < keys[j].op
	})
	okW, allW := map[string]int64{}, map[string]int64{}
	merged := metrics.NewHistogram()
	for _, k := range keys {
		st := l.state[k]
		var errN int64
		for cl := target.Class(1); cl < target.NumClasses; cl++ {
			errN += st.errs[cl]
			if st.errs[cl] > 0 {
				ch <- prometheus.MustNewConstMetric(descErrors, prometheus.CounterValue, float64(st.errs[cl]), k.workload, k.op, cl.String())
			}
		}
		ch <- prometheus.MustNewConstMetric(descOps, prometheus.CounterValue, float64(st.ok), k.workload, k.op, "ok")
		ch <- prometheus.MustNewConstMetric(descOps, prometheus.CounterValue, float64(st.rollback), k.workload, k.op, "rollback")
		ch <- prometheus.MustNewConstMetric(descOps, prometheus.CounterValue, float64(errN+st.errs[0]), k.workload, k.op, "error")
		for cl := target.Class(0); cl < target.NumClasses; cl++ {
			if st.retries[cl] > 0 {
				ch <- prometheus.MustNewConstMetric(descRetries, prometheus.CounterValue, float64(st.retries[cl]), k.workload, k.op, cl.String())
			}
		}
		if k.workload != l.workload {
			continue // an earlier step's op: counters only
		}
		ch <- prometheus.MustNewConstMetric(descRate, prometheus.GaugeValue, st.lastRate, k.workload, k.op)
		merged.Reset()
		for i, h := range st.ring {
			okW[k.workload] += st.ringOK[i]
			allW[k.workload] += st.ringOK[i] + st.ringErr[i]
			if h != nil {
				merged.Merge(h)
			}
		}
		if merged.TotalCount() == 0 {
			continue
		}
		for _, q := range quantiles {
			v := float64(merged.ValueAtQuantile(q.q)) / 1e6
			ch <- prometheus.MustNewConstMetric(descLatency, prometheus.GaugeValue, v, k.workload, k.op, q.label)
		}
	}
	if l.workload != "" {
		ratio := 0.0
		switch {
		case allW[l.workload] > 0:
			ratio = float64(okW[l.workload]) / float64(allW[l.workload])
		case !l.outage():
			ratio = nan()
		}
		ch <- prometheus.MustNewConstMetric(descSuccess, prometheus.GaugeValue, ratio, l.workload)
	}
	ch <- prometheus.MustNewConstMetric(descTerminals, prometheus.GaugeValue, float64(l.terminals))
	ch <- prometheus.MustNewConstMetric(descRuns, prometheus.CounterValue, float64(l.runs))
	for _, p := range []string{"idle", "warmup", "measure", "done"} {
		v := 0.0
		if p == l.phase {
			v = 1
		}
		ch <- prometheus.MustNewConstMetric(descPhase, prometheus.GaugeValue, v, p)
	}
}

// Server serves /metrics for a Live plus the process and Go runtime
// collectors (process_cpu_seconds_total is the driver's own CPU, a verdict
// input).
type Server struct {
	Live *Live
	srv  *http.Server
	addr string
	done chan error
}

// Listen binds addr (host:port; port 0 picks one) and serves /metrics in
// the background until Close. A non-loopback address is refused unless
// allowRemote: live figures name the workload and its targets' load.
func Listen(addr string, allowRemote bool) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("metrics address %q: %w (want host:port, e.g. 127.0.0.1:9400)", addr, err)
	}
	if ip := net.ParseIP(host); !allowRemote && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("metrics address %q: listen on a loopback address (127.0.0.1:PORT)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics address: %w", err)
	}
	live := NewLive()
	reg := prometheus.NewRegistry()
	reg.MustRegister(live, collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector())
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	s := &Server{Live: live, addr: ln.Addr().String(), done: make(chan error, 1),
		srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// Addr is the bound address (with the port chosen when 0 was asked).
func (s *Server) Addr() string { return s.addr }

// Close stops serving, waiting up to 2 s for scrapes in flight.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if serr := <-s.done; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
