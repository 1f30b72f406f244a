package report

import (
	"fmt"
	"hash/fnv"
	"strings"

	"gonum.org/v1/plot/plotter"

	"benchpress/internal/results"
)

// ladderOf is the sorted union of concurrencies, as ints for ticks.
func ladderOf(cases []*Case) []int { return concurrencies(cases) }

// throughputChart: throughput vs concurrency, every case of one kind.
func throughputChart(k Kind, cases []*Case) (Chart, error) {
	var ss []series
	for i, c := range cases {
		s := series{Name: c.ID, Color: i, Points: true}
		for _, st := range c.Steps {
			if st.ok() {
				s.add(plotter.XY{X: float64(st.Concurrency), Y: Throughput(st.Run)}, st)
			}
		}
		ss = append(ss, s)
	}
	m := MetricName(k)
	title := fmt.Sprintf("%s vs concurrency (%s)", m, kindTitle(k))
	svg, err := lineChart(title, "concurrency", m, ss, ladderOf(cases), [2]float64{})
	return Chart{Name: "throughput-" + string(k), Title: title, SVG: svg}, err
}

// latencyChart: p95 (solid) and p99 (dashed) vs concurrency, every case.
func latencyChart(k Kind, cases []*Case) (Chart, error) {
	var ss []series
	for i, c := range cases {
		p95 := series{Name: c.ID + " p95", Color: i, Points: true}
		p99 := series{Name: c.ID + " p99", Color: i, Dashed: true, Points: true}
		for _, st := range c.Steps {
			if st.ok() {
				x := float64(st.Concurrency)
				p95.add(plotter.XY{X: x, Y: st.Run.Summary.P95MS}, st)
				p99.add(plotter.XY{X: x, Y: st.Run.Summary.P99MS}, st)
			}
		}
		ss = append(ss, p95, p99)
	}
	title := fmt.Sprintf("p95 / p99 latency vs concurrency (%s)", kindTitle(k))
	svg, err := lineChart(title, "concurrency", "latency (ms)", ss, ladderOf(cases), [2]float64{})
	return Chart{Name: "latency-" + string(k), Title: title, SVG: svg}, err
}

// TimelinePoints is what a step's timeline chart plots: per saved interval,
// seconds since the step started and the headline rate (tpmC for TPC-C,
// else TPS), read from the result's series as saved.
func TimelinePoints(r *results.Run) plotter.XYs {
	tpcc := KindOf(r.Workload) == KindTPCC
	xy := make(plotter.XYs, 0, len(r.Series))
	for _, iv := range r.Series {
		y := iv.TPS
		if tpcc {
			y = iv.TpmC
		}
		xy = append(xy, plotter.XY{X: iv.T, Y: y})
	}
	return xy
}

// timelineChart: throughput per interval of every step of a case, warm-up
// shaded, each step's line named by its concurrency (and its verdict when
// not ok).
func timelineChart(c *Case) (Chart, bool, error) {
	var ss []series
	warmEnd := 0.0
	for i, st := range c.Steps {
		if len(st.Run.Series) == 0 {
			continue
		}
		// A step whose verdict is not ok is named so in the legend.
		s := series{Name: marked(fmt.Sprintf("c=%d", st.Concurrency), st), Color: i, XY: TimelinePoints(st.Run)}
		for _, iv := range st.Run.Series {
			if iv.Phase == "warmup" && iv.T > warmEnd {
				warmEnd = iv.T
			}
		}
		ss = append(ss, s)
	}
	if len(ss) == 0 {
		return Chart{}, false, nil
	}
	m := MetricName(c.Kind())
	title := fmt.Sprintf("%s over time per step, case %s", m, c.ID)
	svg, err := lineChart(title, "seconds since step start", m, ss, nil, [2]float64{0, warmEnd})
	return Chart{Name: "timeline-" + safeName(c.ID), Title: title, SVG: svg}, true, err
}

// safeName is s as a file name: ASCII letters, digits, '-', '_' and '.'
// kept, others '_' (and then a hash of s, so distinct ids stay distinct).
func safeName(s string) string {
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s)
	if safe == s {
		return s
	}
	// Characters were replaced: two ids (directories "直连" and "代理" of a
	// loose load) must not share a file name, so the original's hash
	// tells them apart.
	h := fnv.New32a()
	h.Write([]byte(s))
	return fmt.Sprintf("%s-%08x", safe, h.Sum32())
}

func kindTitle(k Kind) string {
	switch k {
	case KindTPCC:
		return "TPC-C"
	case KindSysbench:
		return "sysbench"
	case KindYCSB:
		return "YCSB"
	}
	return "other"
}
