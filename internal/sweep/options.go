package sweep

import (
	"fmt"
	"strconv"
	"strings"

	"benchpress/internal/partition"
	"benchpress/internal/registry"
)

// checkOptions validates every case's workload options against the
// workload's declared run options (package registry, the same declaration
// and checks as `benchpress <workload> run`), so that --dry-run rejects
// whatever a real run would reject for input reasons. A problem is located
// at the key's line: the case's own when the case sets it, else the one in
// defaults (reported once for all cases that inherit it). The typed
// options of a valid case are kept for its steps.
func (p *parser) checkOptions() {
	seen := map[string]bool{}
	for i := range p.plan.Cases {
		c := &p.plan.Cases[i]
		rc := p.plan.Resolve(*c)
		if rc.Workload == "" || CheckWorkload(rc.Workload) != "" || len(rc.Ladder) == 0 {
			continue // reported already
		}
		where := fmt.Sprintf("case %q", c.ID)
		opts, problems := registry.Configure(rc.Workload, rc.Options,
			registry.StepSettings{Concurrency: rc.Ladder[0], Warmup: rc.Warmup, Duration: rc.Duration})
		if opts != nil {
			if err := opts.Partition().CheckStep(); err != nil {
				problems = append(problems, registry.KeyError{Key: optionKey(rc.Options, "start-at"), Err: err})
				opts = nil
			} else if err := splitEveryStep(rc, opts.Partition()); err != nil {
				problems = append(problems, *err)
				opts = nil
			}
		}
		for _, pr := range problems {
			line, w := c.line, where
			if pr.Key != "" {
				if l := c.Overrides.line(pr.Key); l > 0 {
					line = l
				} else if l := p.plan.Defaults.line(pr.Key); l > 0 {
					line, w = l, "defaults"
				}
			}
			msg := fmt.Sprintf("%s: %v", w, pr.Err)
			if w == "defaults" {
				// Inherited by every case: once is enough.
				if seen[msg] {
					continue
				}
				seen[msg] = true
			}
			p.add(line, "%s", msg)
		}
		c.config = opts
	}
}

// splitEveryStep refuses a case split into partitions (processes: N or
// partition: I/N) whose ladder has a step that cannot be split: fewer
// terminals than partitions, or (TPC-C, warehouses set) fewer warehouses
// than partitions or terminals than warehouses. The children would refuse
// it at run time; --dry-run says it now.
func splitEveryStep(rc ResolvedCase, f *partition.Flags) *registry.KeyError {
	n, key := f.Processes, "processes"
	if sp, err := partition.Parse(f.Partition); f.Partition != "" && err == nil {
		n, key = sp.Count, "partition"
	}
	if n < 2 {
		return nil
	}
	w := 0
	if rc.Workload == "tpcc" {
		w, _ = strconv.Atoi(rc.Options[optionKey(rc.Options, "warehouses")])
	}
	for _, c := range rc.Ladder {
		if err := (partition.Spec{Count: n}).Validate(c, w); err != nil {
			return &registry.KeyError{Key: optionKey(rc.Options, key), Err: fmt.Errorf("ladder step %d: %w", c, err)}
		}
	}
	return nil
}

// optionKey is the key of options that sets the run flag name (plan keys
// write dashes or underscores; of two spellings, the one set last, as
// registry.Configure sets keys in sorted order), or "" when none does.
func optionKey(options map[string]string, name string) string {
	key := ""
	for k := range options {
		if strings.ReplaceAll(k, "_", "-") == name && k > key {
			key = k
		}
	}
	return key
}
