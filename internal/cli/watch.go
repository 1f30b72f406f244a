package cli

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"benchpress/internal/monitor"
	"benchpress/internal/runwatch"
	"benchpress/internal/sweep"
)

// addWatchFlags adds the watching flags (runwatch.Options) to every
// command named "run" and to "sweep", and wraps their RunE to validate them
// and serve --metrics-addr for the command's lifetime. --metrics-addr with a
// run in local child processes is refused before anything is served
// (refuseLiveProcesses).
func addWatchFlags(root *cobra.Command, app *App) {
	app.watch = runwatch.NewOptions()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if (c.Name() == "run" || c.Name() == "sweep") && c.RunE != nil {
			app.watch.AddFlags(c.Flags())
			inner := c.RunE
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if err := refuseLiveProcesses(cmd, args, app.watch); err != nil {
					return err
				}
				closeWatch, err := app.watch.Open(cmd.ErrOrStderr())
				if err != nil {
					return err
				}
				defer closeWatch()
				return inner(cmd, args)
			}
		}
	}
	walk(root)
}

// watchPlanHosts adds a plan's hosts: to the hosts every step watches.
func watchPlanHosts(app *App, hosts []monitor.HostSpec) error {
	if app.watch == nil {
		app.watch = runwatch.NewOptions()
	}
	return app.watch.SetPlanHosts(hosts)
}

// refuseLiveProcesses refuses --metrics-addr (liveProcesses) on a run
// command given --processes N, and on a sweep whose plan (args[0]) has
// cases with processes:. A plan that does not load is left to the sweep
// to report.
func refuseLiveProcesses(cmd *cobra.Command, args []string, o *runwatch.Options) error {
	if o == nil || o.MetricsAddr() == "" {
		return nil
	}
	if cmd.Name() == "sweep" {
		if len(args) != 1 {
			return nil
		}
		plan, err := sweep.LoadPlan(args[0])
		if err != nil {
			// The sweep's own error and exit code (2), before a server is
			// opened for it.
			var pe *sweep.PlanError
			if errors.As(err, &pe) {
				return pe
			}
			return usagef("%v", err)
		}
		if ids := plan.LocalProcessCases(); len(ids) > 0 {
			return liveProcesses(strings.Join(ids, ", "))
		}
		return nil
	}
	if n, err := cmd.Flags().GetInt("processes"); err != nil || n == 0 {
		return nil
	}
	return liveProcesses("")
}

// liveProcesses is the usage error (exit 2) of --metrics-addr with a run
// that happens in local child processes (--processes, or the named sweep
// cases with processes:): this process would serve none of the run's
// figures, live series that read as an idle driver. The children do not
// get --metrics-addr (partition.IsParentFlag): they would all bind one
// address.
func liveProcesses(cases string) error {
	what := "--processes"
	if cases != "" {
		what = "case(s) " + cases + " with processes:"
	}
	return usagef("--metrics-addr cannot serve a run with %s: the run happens in the child processes and this process would serve none of its figures; "+
		"run the partitions yourself (--partition I/N --run-id ID, each with its own --metrics-addr, then benchpress merge) or drop --metrics-addr", what)
}
