package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// palette is a colour-blind friendly qualitative palette (Okabe-Ito + extras).
var palette = []color.RGBA{
	{0, 114, 178, 255}, {213, 94, 0, 255}, {0, 158, 115, 255}, {204, 121, 167, 255},
	{230, 159, 0, 255}, {86, 180, 233, 255}, {120, 120, 120, 255}, {0, 0, 0, 255},
	{153, 102, 51, 255}, {102, 51, 153, 255},
}

func colorAt(i int) color.RGBA { return palette[i%len(palette)] }

// series is one named line of (x, y) points.
type series struct {
	Name   string
	XY     plotter.XYs
	Dashed bool
	Color  int
	Points bool
	// Flagged are the points of steps whose verdict is not ok (Step.notOK),
	// also in XY: drawn with a cross over the point.
	Flagged plotter.XYs
}

// add appends the point of step st, crossed out (Flagged) when st's
// verdict is not ok.
func (s *series) add(xy plotter.XY, st *Step) {
	s.XY = append(s.XY, xy)
	if st.notOK() != "" {
		s.Flagged = append(s.Flagged, xy)
	}
}

// lineChart draws series on one chart and returns its SVG. logX uses a log
// axis with a tick at each ladder value when the x range spans >= 16x.
func lineChart(title, xLabel, yLabel string, ss []series, ladder []int, shade [2]float64) ([]byte, error) {
	p, err := linePlot(title, xLabel, yLabel, ss, ladder, shade)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w, err := p.WriterTo(9*vg.Inch, 4*vg.Inch, "svg")
	if err != nil {
		return nil, fmt.Errorf("chart %q: %w", title, err)
	}
	if _, err := w.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart %q: %w", title, err)
	}
	return buf.Bytes(), nil
}

// linePlot builds the plot lineChart renders.
func linePlot(title, xLabel, yLabel string, ss []series, ladder []int, shade [2]float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Add(plotter.NewGrid())
	ymax := 0.0
	for _, s := range ss {
		for _, pt := range s.XY {
			ymax = math.Max(ymax, pt.Y)
		}
	}
	if ymax == 0 {
		ymax = 1
	}
	p.Y.Min, p.Y.Max = 0, ymax*1.12
	if shade[1] > shade[0] {
		poly, err := plotter.NewPolygon(plotter.XYs{{X: shade[0], Y: 0}, {X: shade[1], Y: 0}, {X: shade[1], Y: p.Y.Max}, {X: shade[0], Y: p.Y.Max}})
		if err != nil {
			return nil, err
		}
		poly.Color = color.RGBA{220, 224, 230, 255}
		poly.LineStyle.Width = 0
		p.Add(poly)
		p.Legend.Add("warm-up (excluded)", poly)
	}
	for _, s := range ss {
		if len(s.XY) == 0 {
			continue
		}
		l, err := plotter.NewLine(s.XY)
		if err != nil {
			return nil, fmt.Errorf("chart %q: %w", title, err)
		}
		l.Color = colorAt(s.Color)
		l.Width = vg.Points(1.6)
		if s.Dashed {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l)
		if s.Points {
			sc, err := plotter.NewScatter(s.XY)
			if err != nil {
				return nil, fmt.Errorf("chart %q: %w", title, err)
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: colorAt(s.Color), Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
			p.Add(sc)
			p.Legend.Add(s.Name, l, sc)
		} else {
			p.Legend.Add(s.Name, l)
		}
	}
	if err := addFlagged(p, ss); err != nil {
		return nil, fmt.Errorf("chart %q: %w", title, err)
	}
	if len(ladder) > 1 && ladder[0] > 0 && float64(ladder[len(ladder)-1])/float64(ladder[0]) >= 16 {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = ladderTicks(ladder)
		p.X.Min, p.X.Max = float64(ladder[0])/1.3, float64(ladder[len(ladder)-1])*1.3
	}
	p.Y.Tick.Marker = humanTicks{}
	return p, nil
}

// addFlagged crosses out the points of steps whose verdict is not ok, with
// one legend entry for all of them.
func addFlagged(p *plot.Plot, ss []series) error {
	var legend *plotter.Scatter
	for _, s := range ss {
		if len(s.Flagged) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(s.Flagged)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: colorAt(s.Color), Radius: vg.Points(7), Shape: draw.CrossGlyph{}}
		p.Add(sc)
		if legend == nil {
			legend = sc
		}
	}
	if legend != nil {
		key := *legend
		key.GlyphStyle.Color = color.Black
		p.Legend.Add("verdict not ok (failed, degraded, interrupted)", &key)
	}
	return nil
}

// ladderTicks labels each ladder value, skipping values too close to the
// previous label on a log axis (1000 next to 1024).
func ladderTicks(ladder []int) plot.ConstantTicks {
	var ticks []plot.Tick
	last := 0.0
	for _, n := range ladder {
		v := float64(n)
		label := strconv.Itoa(n)
		if last > 0 && v/last < 1.25 {
			label = ""
		} else {
			last = v
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

// humanTicks are default ticks with labels like 12k or 1.5M.
type humanTicks struct{}

// Ticks implements plot.Ticker.
func (humanTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = human(ts[i].Value)
		}
	}
	return ts
}

func human(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case a >= 1e3:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
