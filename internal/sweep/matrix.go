package sweep

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"

	"benchpress/internal/registry"
	"benchpress/internal/target"
)

// Cell is one planned step: a resolved case at one concurrency.
type Cell struct {
	Case        ResolvedCase
	Concurrency int
}

// Matrix lists every step of the plan in run order: case by case, each
// case's ladder in the order written.
func (p *Plan) Matrix() []Cell {
	var cells []Cell
	for _, rc := range p.ResolvedCases() {
		for _, c := range rc.Ladder {
			cells = append(cells, Cell{Case: rc, Concurrency: c})
		}
	}
	return cells
}

// Estimate is the expected wall time of the cells: per step warm-up +
// duration, plus the cool-down between consecutive steps.
func Estimate(cells []Cell) time.Duration {
	var d time.Duration
	for i, c := range cells {
		d += c.Case.Warmup + c.Case.Duration
		if i < len(cells)-1 {
			d += c.Case.Cooldown
		}
	}
	return d
}

// stepFor builds the Step of a cell with the expanded target URL.
func stepFor(c Cell, url string) Step {
	opts := make(map[string]string, len(c.Case.Options))
	for k, v := range c.Case.Options {
		opts[k] = v
	}
	return Step{
		CaseID: c.Case.ID, Workload: c.Case.Workload, Target: url,
		Concurrency: c.Concurrency, Warmup: c.Case.Warmup, Duration: c.Case.Duration,
		ReportInterval: c.Case.ReportInterval, Options: opts, Config: c.Case.Config,
	}
}

// PrintDryRun writes the matrix (case x steps, target redacted, workload and
// options) and the estimated duration to w.
func PrintDryRun(w io.Writer, p *Plan) {
	fmt.Fprintf(w, "plan %s: %d case(s), %d step(s)\n\n", p.Name, len(p.Cases), len(p.Matrix()))
	for _, rc := range p.ResolvedCases() {
		fmt.Fprintf(w, "case %s", rc.ID)
		if rc.Description != "" {
			fmt.Fprintf(w, " — %s", rc.Description)
		}
		fmt.Fprintln(w)
		u := p.Targets[rc.TargetName].URL
		hint := ""
		if alias, canonical := target.SchemeAlias(u); alias != "" {
			hint = fmt.Sprintf("; %s:// is read as %s://", alias, canonical)
		}
		fmt.Fprintf(w, "  target    %s (%s%s)\n", rc.TargetName, Redact(u), hint)
		fmt.Fprintf(w, "  workload  %s%s\n", rc.Workload, optionString(rc.Options))
		fmt.Fprintf(w, "  timing    warmup %s, duration %s, cooldown %s\n", FmtDur(rc.Warmup), FmtDur(rc.Duration), FmtDur(rc.Cooldown))
		steps := ""
		for i, c := range rc.Ladder {
			if i > 0 {
				steps += " "
			}
			steps += strconv.Itoa(c)
		}
		fmt.Fprintf(w, "  steps     %s (%d)\n", steps, len(rc.Ladder))
	}
	for _, c := range p.Compare {
		fmt.Fprintf(w, "compare   %s: base %s, other %s\n", c.Name, c.Base, c.Other)
	}
	printHosts(w, p.Hosts)
	cells := p.Matrix()
	fmt.Fprintf(w, "\nestimated duration: %s for %d steps\n", FmtDur(Estimate(cells).Round(time.Second)), len(cells))
	for _, warn := range p.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
}

func optionString(opts map[string]string) string {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s := ""
	for _, k := range keys {
		for _, v := range registry.Items(opts[k]) {
			s += fmt.Sprintf(" --%s %s", k, maskedProperty(v))
		}
	}
	return s
}
