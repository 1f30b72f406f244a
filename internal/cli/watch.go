package cli

import (
	"github.com/spf13/cobra"

	"benchpress/internal/monitor"
	"benchpress/internal/runwatch"
)

// addWatchFlags adds the watching flags (runwatch.Options) to every
// command named "run" and to "sweep", and wraps their RunE to validate them
// and serve --metrics-addr for the command's lifetime.
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
func watchPlanHosts(app *App, hosts []monitor.HostSpec) {
	if app.watch == nil {
		app.watch = runwatch.NewOptions()
	}
	app.watch.SetPlanHosts(hosts)
}
