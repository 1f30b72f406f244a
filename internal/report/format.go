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

// firstLine shortens an error message to its first line.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}
