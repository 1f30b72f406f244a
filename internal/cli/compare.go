package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"benchpress/internal/report"
)

// newCompareCmd is `benchpress compare A B`: key figures of two runs or two
// result directories with the difference in percent.
func newCompareCmd(app *App) *cobra.Command {
	var html bool
	cmd := &cobra.Command{
		Use:   "compare A B",
		Short: "Compare two runs or two sweeps (difference in %)",
		Long: `Compare two saved results and print a Markdown table of the key figures
(tpmC/TPS/QPS, avg/p95/p99 latency, success rate, errors) with the difference
of B against A in percent.

A and B are two run JSON files, or two result directories (sweeps); for
directories, cases are matched by id and steps by concurrency, and each
case gets overhead = (A - B) / A and speed-up = B / A per concurrency.`,
		Example: `  benchpress compare results/direct.json results/proxy.json
  benchpress compare results/poc-v1/ results/poc-v2/`,
		Args: usageArgs(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := report.Compare(args[0], args[1])
			if err != nil {
				return err
			}
			if html {
				_, err = app.Out.Write(d.HTML())
			} else {
				_, err = app.Out.Write(d.Markdown())
			}
			if err != nil {
				return fmt.Errorf("compare: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&html, "html", false, "print a self-contained HTML page instead of Markdown")
	return cmd
}
