package sweep

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"benchpress/internal/partition"
	"benchpress/internal/registry"
)

// ChildArgs is the command line of a child process running the step (a
// step with --processes, or a partition of one): the plan's options as
// flags (a list-valued option once per element, as plans set them; those
// the parent sets for each child left out, partition.IsChildFlag) and the
// step's target, concurrency, warm-up and duration.
func (st Step) ChildArgs() []string {
	family, variant, _ := strings.Cut(st.Workload, "/")
	out := []string{family, "run"}
	if variant != "" {
		out = append(out, variant)
	}
	fs := pflag.NewFlagSet(family, pflag.ContinueOnError)
	if m, _, err := registry.Lookup(st.Workload); err == nil {
		m.Run.New().Flags(fs)
	}
	keys := make([]string, 0, len(st.Options))
	for k := range st.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := strings.ReplaceAll(k, "_", "-")
		if partition.IsChildFlag(name) {
			continue
		}
		for _, v := range registry.SplitList(fs.Lookup(name), st.Options[k]) {
			out = append(out, "--"+name+"="+v)
		}
	}
	conc := "--terminals="
	if fs.Lookup("terminals") == nil {
		conc = "--threads="
	}
	return append(out, "--target="+st.Target, conc+fmt.Sprint(st.Concurrency),
		"--warmup="+st.Warmup.String(), "--duration="+st.Duration.String(), "--report-interval=0")
}
