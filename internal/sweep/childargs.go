package sweep

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"benchpress/internal/partition"
	"benchpress/internal/registry"
)

// ChildPasswordEnv is the environment variable that hands a child process
// of a step (ChildEnv) its target's password.
const ChildPasswordEnv = partition.ChildPasswordEnv

// ChildArgs is the command line of a child process running the step (a
// step with --processes, or a partition of one): the plan's options as
// flags (a list-valued option once per element, as plans set them; those
// the parent sets for each child left out, partition.IsChildFlag) and the
// step's target, concurrency, warm-up and duration. The target's password
// is never on it (a command line is visible to every user of the machine,
// in ps and /proc): the URL goes without it, with
// --password-env=ChildPasswordEnv, and ChildEnv holds the password.
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
			out = append(out, "--"+name+"="+maskedProperty(v))
		}
	}
	conc := "--terminals="
	if fs.Lookup("terminals") == nil {
		conc = "--threads="
	}
	u, pw := partition.SplitPassword(st.Target)
	out = append(out, "--target="+u)
	if pw != "" {
		out = append(out, "--password-env="+ChildPasswordEnv)
	}
	return append(out, conc+fmt.Sprint(st.Concurrency),
		"--warmup="+st.Warmup.String(), "--duration="+st.Duration.String(), "--report-interval=0")
}

// ChildEnv is what a child process of the step (ChildArgs) needs in its
// environment besides what it inherits: its target's password under
// ChildPasswordEnv, or nothing when the target URL has none.
func (st Step) ChildEnv() []string {
	if _, pw := partition.SplitPassword(st.Target); pw != "" {
		return []string{ChildPasswordEnv + "=" + pw}
	}
	return nil
}
