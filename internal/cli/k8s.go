package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"benchpress/internal/k8s"
	"benchpress/internal/results"
)

func newK8sCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "k8s",
		Short: "Kubernetes manifests for runs partitioned over several load machines",
		Args:  noArgsUsage,
	}
	cmd.AddCommand(k8s.NewJobCommand(app.Out, app.Err, func(args []string) error { return checkRunCommand(app, args) }))
	return cmd
}

// checkRunCommand parses args as a benchpress command line (without running
// it) so that a typo fails here and not in N pods: it must be a run command
// that takes --partition.
func checkRunCommand(app *App, args []string) error {
	root := NewRoot(&App{Out: app.Out, Err: app.Err, Getenv: func(string) string { return "" }})
	c, rest, err := root.Find(args)
	if err != nil || c == root {
		// Only the command's words: the flags after them may hold a
		// target URL with its password.
		var words []string
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				break
			}
			words = append(words, a)
		}
		return usagef("k8s job: %q is not a benchpress command", strings.Join(words, " "))
	}
	if c.Flags().Lookup("partition") == nil {
		return usagef("k8s job: %s cannot be partitioned (no --partition)", c.CommandPath())
	}
	if err := c.ParseFlags(rest); err != nil {
		return usagef("k8s job: %s: %s", c.CommandPath(), results.Redact(err.Error()))
	}
	return nil
}
