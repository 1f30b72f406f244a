package report

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"benchpress/internal/monitor"
	"benchpress/internal/results"
	"benchpress/internal/sweep"
)

var gen = flag.Bool("gen", false, "regenerate the fixture run JSONs under testdata/")

// curve is a saturating throughput curve: peak * c / (c + half), bent down
// past knee by decline per doubling.
func curve(c int, peak, half float64, knee int, decline float64) float64 {
	v := peak * float64(c) / (float64(c) + half)
	if c > knee {
		v *= math.Pow(1-decline, math.Log2(float64(c)/float64(knee)))
	}
	return math.Round(v*100) / 100
}

var t0 = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// fixtureRun builds a realistic, fully deterministic run.
func fixtureRun(workload, target string, c int, tput float64, idx int) *results.Run {
	lat := 0.0 // set from Little's law below
	r := &results.Run{
		FormatVersion: results.FormatVersion, Tool: results.Tool{Name: "benchpress", Version: "0.1.0"},
		Workload: workload, Target: target, TargetKind: "mysql", ServerVersion: "10.11.6-MariaDB",
		Config: map[string]any{"concurrency": c}, Status: "ok",
		StartedAt: t0.Add(time.Duration(idx) * 3 * time.Minute), EndedAt: t0.Add(time.Duration(idx)*3*time.Minute + 70*time.Second),
		WarmupS: 10, ErrorsByClass: map[string]int64{}, Histograms: map[string]string{},
	}
	s := &r.Summary
	s.DurationS = 60
	tps := tput
	if KindOf(workload) == KindTPCC {
		tps = tput * 2.222 / 60
	}
	lat = float64(c) * 1000 / tps // Little's law: closed loop, no think time
	s.AvgMS, s.P95MS, s.P99MS = round2(lat), round2(lat*2.4), round2(lat*3.9)
	switch KindOf(workload) {
	case KindTPCC:
		s.TpmC = tput
		s.TpmTotal = round2(tput * 2.222)
		s.TPS = round2(s.TpmTotal / 60)
		s.Transactions = int64(s.TpmTotal)
		s.NewOrderCommitted = int64(tput * 0.99)
		s.NewOrderRolledBack = int64(tput) - s.NewOrderCommitted
		mix := []struct {
			name string
			w    float64
		}{{"new_order", 0.45}, {"payment", 0.43}, {"order_status", 0.04}, {"delivery", 0.04}, {"stock_level", 0.04}}
		for i, m := range mix {
			n := int64(s.TpmTotal * m.w)
			k := 1 + float64(i)*0.3
			r.Ops = append(r.Ops, results.Op{Name: m.name, Count: n, PerMin: float64(n), PerSec: round2(float64(n) / 60),
				Latency: results.Latency{Min: round2(lat * 0.2 * k), Avg: round2(lat * k), P50: round2(lat * 0.9 * k), P90: round2(lat * 1.8 * k),
					P95: round2(lat * 2.4 * k), P99: round2(lat * 3.9 * k), P999: round2(lat * 6 * k), P9999: round2(lat * 9 * k), Max: round2(lat * 14 * k)}})
		}
		r.Checks = []results.Check{
			{Name: "consistency 3.3.2.1 (W_YTD = sum(D_YTD))", Passed: true, TookS: 0.42},
			{Name: "response time 5.2.5.4 (90th percentile)", Passed: lat*1.8 < 100, Detail: "new_order p90 " + f2(lat*1.8) + " ms (limit 100 ms)"},
		}
	case KindSysbench:
		s.TPS = tput
		s.QPS = round2(tput * 20)
		s.Transactions = int64(tput * 60)
		r.Ops = []results.Op{{Name: "transaction", Count: s.Transactions, PerSec: tput,
			Latency: results.Latency{Min: round2(lat * 0.3), Avg: s.AvgMS, P95: s.P95MS, P99: s.P99MS, Max: round2(lat * 12)}}}
	case KindYCSB:
		s.TPS = tput
		s.Transactions = int64(tput * 60)
		for i, name := range []string{"READ", "UPDATE"} {
			k := 1 + float64(i)*2.5
			n := s.Transactions / 2
			r.Ops = append(r.Ops, results.Op{Name: name, Count: n, PerSec: round2(float64(n) / 60),
				Latency: results.Latency{Min: round2(lat * 0.25 * k), Avg: round2(lat * k), P99: round2(lat * 5 * k),
					P999: round2(lat * 9 * k), P9999: round2(lat * 14 * k), Max: round2(lat * 30 * k)}})
		}
	}
	s.Errors = int64(c / 64)
	s.SuccessRate = round2(100 * float64(s.Transactions) / float64(s.Transactions+s.Errors))
	if s.Errors > 0 {
		r.ErrorsByClass["deadlock"] = s.Errors
	}
	for t := 5.0; t <= 70; t += 5 {
		phase := "measure"
		if t <= 10 {
			phase = "warmup"
		}
		f := 1 - math.Exp(-t/4) + 0.03*math.Sin(t+float64(c))
		iv := results.Interval{T: t, Phase: phase, TPS: round2(s.TPS * f)}
		if s.TpmC > 0 {
			iv.TpmC = round2(s.TpmC * f)
		}
		r.Series = append(r.Series, iv)
	}
	return r
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

func writeFixture(t *testing.T, dir, planSrc string, runs map[string]map[int]*results.Run) {
	t.Helper()
	os.RemoveAll(dir)
	p, err := sweep.ParsePlan("plan.yaml", []byte(planSrc))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := p.MarshalResolved()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, sweep.PlanFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	env := &sweep.Environment{Benchpress: "0.1.0", GoVersion: "go1.26.8", Plan: p.Name,
		Client: monitor.Host{Hostname: "loadgen-1", OS: "linux", Platform: "debian 12.7", Kernel: "6.1.0-25-amd64", Arch: "x86_64",
			CPUModel: "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz", CPUs: 80, CPUCores: 40, MemTotalBytes: 256 << 30},
		Targets: map[string]*sweep.TargetEnv{}}
	for _, n := range p.TargetNames() {
		env.Targets[n] = &sweep.TargetEnv{URL: sweep.Redact(p.Targets[n].URL), ServerVersion: "10.11.6-MariaDB",
			Settings: map[string]string{"innodb_buffer_pool_size": "64G", "max_connections": "4000"}}
	}
	if err := sweep.WriteEnvironment(dir, env); err != nil {
		t.Fatal(err)
	}
	for id, steps := range runs {
		for c, r := range steps {
			if err := results.Write(sweep.StepPath(dir, id, c), r); err != nil {
				t.Fatal(err)
			}
		}
	}
}

const pocPlan = `name: poc
description: Direct MariaDB vs. the sharding proxy, TPC-C 100 warehouses.
targets:
  direct: mysql://bench@10.0.0.5:3306/tpcc
  proxy: mysql://bench@10.0.0.6:3307,10.0.0.7:3307/tpcc
defaults:
  workload: tpcc
  warehouses: 100
  warmup: 10s
  duration: 1m
ladder: [1, 8, 64, 256, 1024]
cases:
  - id: T1-1
    description: Direct connection to the database.
    target: direct
  - id: T1-2
    description: Through the proxy pair, client-side balancing.
    target: proxy
compare:
  - {name: proxy-overhead, base: T1-1, other: T1-2}
`

const mixedPlan = `name: micro
targets:
  db: mysql://bench@10.0.0.5:3306/sbtest
ladder: [8, 32, 128]
cases:
  - id: rw
    workload: sysbench/oltp_read_write
    tables: 4
    table-size: 100000
  - id: ycsb-a
    workload: ycsb/a
    properties: {recordcount: 100000}
`

// TestGenerateFixtures rewrites testdata/ when run with -gen.
func TestGenerateFixtures(t *testing.T) {
	if !*gen {
		t.Skip("run with -gen to regenerate testdata fixtures")
	}
	runs := map[string]map[int]*results.Run{"T1-1": {}, "T1-2": {}}
	for i, c := range []int{1, 8, 64, 256, 1024} {
		runs["T1-1"][c] = fixtureRun("tpcc", "mysql://bench@10.0.0.5:3306/tpcc", c, curve(c, 420000, 40, 256, 0.04), i)
		runs["T1-2"][c] = fixtureRun("tpcc", "mysql://bench@10.0.0.6:3307,10.0.0.7:3307/tpcc", c, curve(c, 380000, 50, 256, 0.06), 5+i)
	}
	runs["T1-1"][1024].Driver = &results.Driver{CPUUserS: 3000, CPUSysS: 900, MachineBusyPct: 93, DriverSharePct: 88, Cores: 80,
		DriverBound: true, DriverBoundNote: "load machine 93% busy, 88% of it benchpress"}
	f := runs["T1-2"][1024]
	*f = results.Run{FormatVersion: 1, Tool: f.Tool, Workload: "tpcc", Target: f.Target, TargetKind: "mysql",
		Config: map[string]any{"concurrency": 1024}, Status: "failed", StartedAt: f.StartedAt, EndedAt: f.StartedAt.Add(12 * time.Second),
		Error: "connect: proxy 10.0.0.7:3307: too many connections (max_connections 1000)"}
	writeFixture(t, "testdata/poc", pocPlan, runs)

	mixed := map[string]map[int]*results.Run{"rw": {}, "ycsb-a": {}}
	for i, c := range []int{8, 32, 128} {
		mixed["rw"][c] = fixtureRun("sysbench/oltp_read_write", "mysql://bench@10.0.0.5:3306/sbtest", c, curve(c, 2600, 40, 128, 0), i)
		mixed["ycsb-a"][c] = fixtureRun("ycsb/a", "mysql://bench@10.0.0.5:3306/sbtest", c, curve(c, 52000, 30, 128, 0), 3+i)
	}
	writeFixture(t, "testdata/mixed", mixedPlan, mixed)
}
