package cli

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"benchpress/internal/results"
	"benchpress/internal/sweep"
)

// stepRunner runs sweep steps with the same flag definitions, validation and
// code as `benchpress <workload> run`.
type stepRunner struct{ app *App }

// stepFamily binds one workload family's run flags for a sweep step.
type stepFamily struct {
	// bind registers the family's run flags on fs and returns the function
	// that runs the step once the flags are set.
	bind func(app *App, fs *pflag.FlagSet, test string) func(ctx context.Context) (*results.Run, error)
}

// stepFamilies maps "tpcc", "sysbench", "ycsb" to their binders.
var stepFamilies = map[string]stepFamily{
	"tpcc": {bind: func(app *App, fs *pflag.FlagSet, _ string) func(context.Context) (*results.Run, error) {
		var f tpccRunFlags
		f.register(fs)
		return func(ctx context.Context) (*results.Run, error) { return runTPCC(ctx, app, &f, true) }
	}},
}

// RunStep implements sweep.StepRunner.
func (s stepRunner) RunStep(ctx context.Context, st sweep.Step) (*results.Run, error) {
	family, test, _ := strings.Cut(st.Workload, "/")
	fam, ok := stepFamilies[family]
	if !ok {
		return nil, usagef("unknown workload %q", st.Workload)
	}
	fs := pflag.NewFlagSet(st.Workload, pflag.ContinueOnError)
	run := fam.bind(s.app, fs, test)
	set := func(k, v string) error {
		if fs.Lookup(k) == nil {
			return usagef("case %s: unknown %s option %q", st.CaseID, family, k)
		}
		if err := fs.Set(k, v); err != nil {
			return usagef("case %s: option %s=%q: %v", st.CaseID, k, v, err)
		}
		return nil
	}
	keys := make([]string, 0, len(st.Options))
	for k := range st.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := set(k, st.Options[k]); err != nil {
			return nil, err
		}
	}
	conc := "terminals"
	if fs.Lookup(conc) == nil {
		conc = "threads"
	}
	fixed := [][2]string{{"target", st.Target}, {conc, fmt.Sprint(st.Concurrency)},
		{"warmup", st.Warmup.String()}, {"duration", st.Duration.String()}}
	for _, kv := range fixed {
		if fs.Lookup(kv[0]) == nil {
			continue
		}
		if err := fs.Set(kv[0], kv[1]); err != nil {
			return nil, usagef("case %s: %s: %v", st.CaseID, kv[0], err)
		}
	}
	if f := fs.Lookup("report-interval"); f != nil {
		_ = fs.Set("report-interval", "0")
	}
	return run(ctx)
}
