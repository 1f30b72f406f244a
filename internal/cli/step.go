package cli

import (
	"context"
	"strconv"

	"benchpress/internal/registry"
	"benchpress/internal/results"
	"benchpress/internal/sweep"
)

// stepRunner runs sweep steps with the same options, validation and code
// as `benchpress <workload> run`.
type stepRunner struct{ app *App }

// RunStep implements sweep.StepRunner. A step carries the typed options the
// plan was validated into; a step without them (built by hand) is
// configured from its string options the same way.
func (s stepRunner) RunStep(ctx context.Context, st sweep.Step) (*results.Run, error) {
	opts := st.Config
	if opts == nil {
		o, problems := registry.Configure(st.Workload, st.Options,
			registry.StepSettings{Concurrency: st.Concurrency, Warmup: st.Warmup, Duration: st.Duration})
		if len(problems) > 0 {
			errs := make([]error, len(problems))
			for i, p := range problems {
				errs[i] = usagef("case %s: %v", st.CaseID, p.Err)
			}
			return nil, joinUsage(errs)
		}
		opts = o
	} else {
		opts = opts.Clone()
	}
	opts.SetStep(st.Concurrency, st.Warmup, st.Duration, st.ReportInterval)
	opts.Target().URL = st.Target
	if err := opts.Partition().ForStep(st.CaseID, st.Concurrency); err != nil {
		return nil, err
	}
	run, _, err := runResolved(ctx, s.app, opts, true, childCmd{args: s.childArgs(st), env: st.ChildEnv()})
	return run, err
}

// childArgs is the command line of a child process of the step (a step
// with processes: N): the step's own, and the sweep's --min-success, which
// the plan does not hold. (A sweep has no --arrivals: its steps' arrivals
// are uniform, the children's default.)
func (s stepRunner) childArgs(st sweep.Step) func() []string {
	return func() []string {
		return append(st.ChildArgs(), "--min-success="+strconv.FormatFloat(s.app.policy.minSuccess, 'g', -1, 64))
	}
}
