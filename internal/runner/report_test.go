package runner

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"benchpress/internal/metrics"
)

// TestReporterLines: every tick that ends a report window gives one live
// line, also when the ticks come late or early (the ticker's goroutine
// shares the CPUs: at 128 terminals on 2 vCPUs ticks came 120 ms late and
// the 50 ms margin of before dropped the line after a late tick); a tick at
// a phase edge shortly after a line folds into the next one. The run's
// last, partial line (flush, after the drain) is marked Final ("F"), so
// that the console does not show it as a second line for the same second.
func TestReporterLines(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		d := make([]time.Duration, len(v))
		for i, x := range v {
			d[i] = time.Duration(x) * time.Millisecond
		}
		return d
	}
	tests := []struct {
		name     string
		interval time.Duration
		ticks    []time.Duration // since the start
		end      time.Duration   // the flush after the drain; 0 none
		endTick  time.Duration   // the tick after the drain (before the flush); 0 none
		want     string          // "label/seconds" per line, F if Final
	}{
		{"punctual", time.Second, ms(1000, 2000, 3000), 0, 0, "1s/1.00 2s/1.00 3s/1.00"},
		{"drain after the last tick", time.Second, ms(1000, 2000), 2380 * time.Millisecond, 0, "1s/1.00 2s/1.00 2s/0.38F"},
		{"rest of the window and drain", 10 * time.Second, ms(10000, 20000, 25000), 25400 * time.Millisecond, 0, "10s/10.00 20s/10.00 25s/5.40F"},
		// A drain longer than the interval: its tick emits the last line.
		{"long drain", 2 * time.Second, ms(2000, 4000), 9000 * time.Millisecond, 9000 * time.Millisecond, "2s/2.00 4s/2.00 9s/5.00F"},
		// The ticks of a run of 128 MariaDB terminals (series of the JSON).
		{"late then punctual", time.Second, ms(1117, 2008, 3009, 4058, 5021, 6010), 0, 0,
			"1s/1.12 2s/0.89 3s/1.00 4s/1.05 5s/0.96 6s/0.99"},
		{"phase edge folds", time.Second, ms(1000, 2000, 2300, 3300), 0, 0, "1s/1.00 2s/1.00 3s/1.30"},
		{"every other tick", 2 * time.Second, ms(1000, 2150, 3000, 3980, 5010, 6000), 0, 0, "2s/2.15 4s/1.83 6s/2.02"},
		{"late tick of a long interval", 10 * time.Second, ms(9000, 10300, 19000, 20000), 0, 0, "10s/10.30 20s/9.70"},
		// A 5 s warm-up under a 10 s interval: its own line ("w"), the
		// window's lines after it measure the window alone.
		{"warm-up shorter than the interval", 10 * time.Second, ms(1000, 2000, 3000, 4000, 5000, -5000, 6000, 15000), 0, 0, "5s/5.00w 15s/10.00"},
		// A warm-up ending 0.3 s after a line folds into the next one.
		{"warm-up edge just after a line", time.Second, ms(1000, 2000, 2300, -2300, 3300), 0, 0, "1s/1.00w 2s/1.00w 3s/1.30"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			cfg := &Config{ReportInterval: tt.interval, OnReport: func(r Report) {
				l := fmt.Sprintf("%ds/%.2f", int(r.Elapsed.Round(time.Second).Seconds()), r.Seconds)
				if r.Phase == "warmup" && slicesHasNeg(tt.ticks) {
					l += "w"
				}
				if r.Final {
					l += "F"
				}
				got = append(got, l)
			}}
			reg := metrics.NewRegistry([]string{"op"}, nil, 1)
			start := time.Unix(1000, 0)
			rep := newReporter(cfg, reg, start)
			reg.SetPhase(metrics.Warmup)
			for _, d := range tt.ticks {
				if d < 0 { // the window opens: as Run's openWindow
					rep.phaseEdge(start.Add(-d))
					reg.SetPhase(metrics.Measure)
					continue
				}
				rep.add(reg.Tick(), start.Add(d))
			}
			if tt.end > 0 { // as Run's finish: the drain's tick, then flush
				rep.ending = true
				if tt.endTick > 0 {
					rep.add(reg.Tick(), start.Add(tt.endTick))
				}
				rep.flush(start.Add(tt.end))
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("lines %s, want %s", g, tt.want)
			}
		})
	}
}

// slicesHasNeg tells whether a test's ticks open a window (a negative
// entry): only then are warm-up lines marked.
func slicesHasNeg(ds []time.Duration) bool {
	for _, d := range ds {
		if d < 0 {
			return true
		}
	}
	return false
}
