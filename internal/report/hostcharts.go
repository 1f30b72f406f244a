package report

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"benchpress/internal/results"
)

// cpuChart is seed 000's "throughput trend with CPU usage": throughput per
// step on top, each watched host's CPU % (and each busy process's) below,
// on the same concurrency axis.
func cpuChart(c *Case) (Chart, bool, error) {
	var ss []series
	names := hostNames(c)
	for i, n := range names {
		s := series{Name: n + " CPU %", Color: i + 1, Points: true}
		for _, st := range c.Steps {
			if h := hostOf(st, n); h != nil && h.Samples > 0 && st.ok() {
				s.add(plotter.XY{X: float64(st.Concurrency), Y: h.CPUPct}, st)
			}
		}
		ss = append(ss, s)
	}
	title := "Throughput trend with CPU usage, case " + c.ID
	return stackedChart("cpu-"+safeName(c.ID), title, c, "CPU % (all cores)", ss)
}

// netChart is seed 000's "throughput trend with NIC usage": throughput on
// top, each host's NIC receive (solid) and transmit (dashed) KB/s below.
func netChart(c *Case) (Chart, bool, error) {
	var ss []series
	names := hostNames(c)
	lo := hasLoopback(c)
	for i, n := range names {
		rx := series{Name: n + " rx KB/s", Color: i + 1, Points: true}
		tx := series{Name: n + " tx KB/s", Color: i + 1, Dashed: true, Points: true}
		for _, st := range c.Steps {
			h := hostOf(st, n)
			if h == nil || h.Samples == 0 || !st.ok() {
				continue
			}
			x := float64(st.Concurrency)
			r, t := h.NetRxBps, h.NetTxBps
			if lo {
				r, t = r+h.LoopbackRxBps, t+h.LoopbackTxBps
			}
			rx.add(plotter.XY{X: x, Y: r / 1024}, st)
			tx.add(plotter.XY{X: x, Y: t / 1024}, st)
		}
		ss = append(ss, rx, tx)
	}
	title := "Throughput trend with NIC usage, case " + c.ID
	y := "KB/s"
	if lo {
		title += " (loopback included)"
		y = "KB/s incl. loopback"
	}
	return stackedChart("net-"+safeName(c.ID), title, c, y, ss)
}

// hostNames lists the watched hosts of c in first-seen order.
func hostNames(c *Case) []string {
	idx := map[string]int{}
	var names []string
	for _, s := range c.Steps {
		if s.Run.Watch == nil {
			continue
		}
		for _, h := range s.Run.Watch.Hosts {
			if _, ok := idx[h.Name]; !ok {
				idx[h.Name] = len(names)
				names = append(names, h.Name)
			}
		}
	}
	return names
}

func hostOf(s *Step, name string) *results.WatchedHost {
	if s.Run.Watch == nil {
		return nil
	}
	for i := range s.Run.Watch.Hosts {
		if s.Run.Watch.Hosts[i].Name == name {
			return &s.Run.Watch.Hosts[i]
		}
	}
	return nil
}

// stackedChart draws the case's throughput per step above lower, aligned
// on the concurrency axis, as one SVG.
func stackedChart(name, title string, c *Case, yLabel string, lower []series) (Chart, bool, error) {
	if len(lower) == 0 {
		return Chart{}, false, nil
	}
	ladder := ladderOf([]*Case{c})
	m := MetricName(c.Kind())
	top := series{Name: c.ID + " " + m, Color: 0, Points: true}
	for _, st := range c.Steps {
		if st.ok() {
			top.add(plotter.XY{X: float64(st.Concurrency), Y: Throughput(st.Run)}, st)
		}
	}
	p1, err := linePlot(title, "", m, []series{top}, ladder, [2]float64{})
	if err != nil {
		return Chart{}, false, err
	}
	p2, err := linePlot("", "concurrency", yLabel, lower, ladder, [2]float64{})
	if err != nil {
		return Chart{}, false, err
	}
	w, h := 9*vg.Inch, 6*vg.Inch
	cv := vgsvg.New(w, h)
	dc := draw.New(cv)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadY: vg.Points(6), PadTop: vg.Points(2), PadBottom: vg.Points(2)}
	canvases := plot.Align([][]*plot.Plot{{p1}, {p2}}, tiles, dc)
	p1.Draw(canvases[0][0])
	p2.Draw(canvases[1][0])
	var buf bytes.Buffer
	if _, err := cv.WriteTo(&buf); err != nil {
		return Chart{}, false, fmt.Errorf("chart %q: %w", title, err)
	}
	return Chart{Name: name, Title: title, SVG: buf.Bytes()}, true, nil
}
