// Package console holds the console output shared by the workload printers
// and the CLI: number formatting, text tables, load progress, run summaries.
package console

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// Table is a small right-aligned text table (first column left-aligned).
type Table struct {
	Head []string
	rows [][]string
}

func (t *Table) Add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *Table) Write(w io.Writer) {
	width := make([]int, len(t.Head))
	for i, h := range t.Head {
		width[i] = utf8.RuneCountInString(h)
	}
	for _, r := range t.rows {
		for i, c := range r {
			if n := utf8.RuneCountInString(c); i < len(width) && n > width[i] {
				width[i] = n
			}
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		for i, c := range cells {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString("  " + pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(t.Head)
	for _, r := range t.rows {
		line(r)
	}
}

// F1, F2 and FI format numbers with 1 or 2 decimals and thousands separators.
func F1(v float64) string { return group(fmt.Sprintf("%.1f", v)) }
func F2(v float64) string { return group(fmt.Sprintf("%.2f", v)) }
func FI(v int64) string   { return group(fmt.Sprintf("%d", v)) }

// group inserts thousands separators into the integer part of a number.
func group(s string) string {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	out := b.String() + frac
	if neg {
		return "-" + out
	}
	return out
}

// Elapsed renders a run's elapsed time in whole seconds ("12s").
func Elapsed(d time.Duration) string {
	return fmt.Sprintf("%ds", int(d.Round(time.Second).Seconds()))
}
