package cli

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"benchpress/internal/results"
)

// runPolicy holds the settings every run command shares for judging a run
// and pacing it: --min-success and --arrivals. They live on the App (one
// command per process) so that sweep steps inherit the sweep's values.
type runPolicy struct {
	minSuccess float64
	arrivals   string
}

// addRunPolicyFlags gives every run command (one with --json), quickstart
// and sweep the --min-success flag, commands with --rate the --arrivals
// flag, and checks before anything runs that the files the command will
// write (--json, sweep --out) can be written, so a long run is not lost at
// its end.
func addRunPolicyFlags(app *App, root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		fs := c.Flags()
		// A hidden --json is a run flag accepted and ignored by a command
		// around the run (acceptRunFlags), which judges nothing.
		jf := fs.Lookup("json")
		runs := (jf != nil && !jf.Hidden) || c.Name() == "quickstart" || c.Name() == "sweep"
		if !runs {
			return
		}
		fs.Float64Var(&app.policy.minSuccess, "min-success", results.DefaultMinSuccessPct,
			"success rate (%) below which the run's verdict is \"failed\" (exit code 10)")
		if fs.Lookup("rate") != nil {
			fs.StringVar(&app.policy.arrivals, "arrivals", "uniform", "open-loop arrivals with --rate: uniform (evenly spaced, k6) or poisson (exponential gaps, sysbench)")
		}
		prev := c.PreRunE
		c.PreRunE = func(cmd *cobra.Command, args []string) error {
			if err := app.policy.validate(); err != nil {
				return err
			}
			if err := checkWritable(cmd.Flags()); err != nil {
				return err
			}
			if prev != nil {
				return prev(cmd, args)
			}
			return nil
		}
	}
	walk(root)
}

func (p *runPolicy) validate() error {
	if p.minSuccess < 0 || p.minSuccess > 100 {
		return usagef("--min-success must be within 0..100 (got %g)", p.minSuccess)
	}
	if p.arrivals != "" && p.arrivals != "uniform" && p.arrivals != "poisson" {
		return usagef("--arrivals must be uniform or poisson (got %q)", p.arrivals)
	}
	return nil
}

// checkWritable fails with a usage error when --json FILE or --out DIR was
// given and cannot be written. --json - (standard output, as every pod of
// a Kubernetes Job writes its result) needs no writable directory.
func checkWritable(fs *pflag.FlagSet) error {
	if f := fs.Lookup("json"); f != nil && f.Value.String() != "" && f.Value.String() != "-" {
		if err := results.WritableFile(f.Value.String()); err != nil {
			return usagef("--json %s: %v", f.Value.String(), err)
		}
	}
	if f := fs.Lookup("out"); f != nil && f.Value.String() != "" {
		if err := results.WritableDir(f.Value.String()); err != nil {
			return usagef("--out %s: %v", f.Value.String(), err)
		}
	}
	return nil
}
