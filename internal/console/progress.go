package console

import (
	"fmt"
	"io"
	"strings"
	"time"

	"benchpress/internal/load"
)

// LoadProgress returns a load.Progress callback that prints rows/s, MB/s and
// ETA: on a terminal it rewrites one status line; otherwise it prints a line
// every 10 seconds, so logs stay readable.
func LoadProgress(w io.Writer, isTTY bool) func(load.Progress) {
	var lastLine time.Time
	return func(p load.Progress) {
		secs := p.Elapsed.Seconds()
		if secs <= 0 {
			secs = 1e-9
		}
		rate := float64(p.Rows) / secs
		mbs := float64(p.Bytes) / secs / 1e6
		eta := "-"
		if rate > 0 && p.EstRows > p.Rows {
			eta = (time.Duration(float64(p.EstRows-p.Rows)/rate) * time.Second).Round(time.Second).String()
		}
		pct := 0.0
		if p.EstRows > 0 {
			pct = 100 * float64(p.Rows) / float64(p.EstRows)
		}
		var active []string
		for _, t := range p.Tables {
			if t.UnitsDone < t.Units && t.Rows > 0 {
				active = append(active, fmt.Sprintf("%s %d/%d", t.Table, t.UnitsDone, t.Units))
			}
		}
		line := fmt.Sprintf("loading %5.1f%%  %s rows  %s rows/s  %.1f MB/s  ETA %s  %s",
			pct, FI(p.Rows), F1(rate), mbs, eta, strings.Join(active, ", "))
		switch {
		case p.Done:
			if isTTY {
				fmt.Fprint(w, "\r\033[K")
			}
			fmt.Fprintf(w, "loaded %s rows in %s (%s rows/s, %.1f MB/s)\n", FI(p.Rows), p.Elapsed.Round(100*time.Millisecond), F1(rate), mbs)
		case isTTY:
			fmt.Fprintf(w, "\r\033[K%s", line)
		case time.Since(lastLine) >= 10*time.Second:
			lastLine = time.Now()
			fmt.Fprintln(w, line)
		}
	}
}
