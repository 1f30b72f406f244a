package report

import (
	"fmt"
	"math"
	"strings"

	"benchpress/internal/results"
)

// f2 formats with two decimals (the seed reports' precision).
func f2(v float64) string { return fmt.Sprintf("%.2f", v) }

// f0 formats an integer-valued figure.
func f0(v float64) string { return fmt.Sprintf("%.0f", v) }

// notApplicable is printed for a percentage that does not exist: a
// difference from a zero base (Overhead, Diff).
const notApplicable = "n/a"

// pct formats a percentage with two decimals ("n/a" for NaN).
func pct(v float64) string {
	if math.IsNaN(v) {
		return notApplicable
	}
	return fmt.Sprintf("%.2f%%", v)
}

// signedPct formats a difference in percent with its sign ("n/a" for NaN:
// a difference from a zero base).
func signedPct(v float64) string {
	switch {
	case math.IsNaN(v):
		return notApplicable
	case math.Abs(v) < 0.005:
		return "0.00%"
	}
	return fmt.Sprintf("%+.2f%%", v)
}

// rate formats a success rate in percent with two decimals, rounded down
// (results.RatePct): a rate below --min-success never prints as the bound.
func rate(v float64) string { return results.RatePct(v) + "%" }

// ratio formats a speed-up factor.
func ratio(v float64) string { return fmt.Sprintf("%.3fx", v) }

// us formats milliseconds as whole microseconds.
func us(ms float64) string { return fmt.Sprintf("%.0f", ms*1000) }

// mib formats bytes as GiB with one decimal.
func gib(b uint64) string { return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30)) }

// firstLine shortens an error message for a table cell: its first line,
// and of a long one its head and its tail (a wrapped Go error ends with the
// server's own text), cut on character boundaries. A step's full error is
// in its warning note (oneLine).
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	r := []rune(s)
	if len(r) <= 160 {
		return s
	}
	return string(r[:50]) + " ... " + string(r[len(r)-105:])
}

// oneLine is a whole message on one line (a joined error's lines joined
// by "; "), for a warning note.
func oneLine(s string) string {
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}
