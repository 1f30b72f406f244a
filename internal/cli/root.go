package cli

import (
	"github.com/spf13/cobra"
)

// NewRoot builds the command tree.
func NewRoot(app *App) *cobra.Command {
	root := &cobra.Command{
		Use:   "benchpress",
		Short: "OLTP benchmarks (TPC-C, sysbench OLTP, YCSB) for MySQL, PostgreSQL and SQLite",
		Long: `benchpress runs the standard OLTP benchmarks against MySQL-protocol
(MySQL, MariaDB, TiDB, sharding proxies) and PostgreSQL-protocol databases, or an
embedded SQLite database, measures them with HDR histograms, sweeps concurrency
and writes the performance test report.

Start with:
  benchpress quickstart            # 1 warehouse of TPC-C on embedded SQLite, ~30 s`,
		Example: `  benchpress tpcc prepare --target mysql://bench@10.0.0.5:3306/tpcc --warehouses 100 --threads 8
  benchpress tpcc run --target mysql://bench@10.0.0.5:3306/tpcc --terminals 64 --warmup 30s --duration 5m --json r.json
  benchpress tpcc check --target mysql://bench@10.0.0.5:3306/tpcc
  benchpress sysbench run oltp_read_write --target postgres://bench@db:5432/sb --threads 8 --time 60
  benchpress ycsb run a --target mysql://bench@db:3306/ycsb --threads 32 --time 60
  benchpress sweep poc.yaml --out results/poc    # the ladder; writes results/poc/report.md and report.html
  benchpress report results/poc                   # render the report again from the saved results`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(app.Out)
	root.SetErr(app.Err)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &UsageError{Err: err} })
	root.AddCommand(familyCommands(app)...)
	root.AddCommand(
		newQuickstartCmd(app),
		newSweepCmd(app, stepRunner{app: app}),
		newReportCmd(app),
		newCompareCmd(app),
		newVersionCmd(app),
		newMergeCmd(app),
		newK8sCmd(app),
	)
	groupCommand(root)
	addProfileFlags(root, &app.prof)
	addWatchFlags(root, app)
	addRunPolicyFlags(app, root)
	return root
}

// groupCommand makes a command that only holds subcommands print its help
// when called bare, and fail with a usage error (exit 2) on an unknown
// subcommand, for itself and every group below it.
func groupCommand(cmd *cobra.Command) {
	if cmd.HasSubCommands() && cmd.RunE == nil && cmd.Run == nil {
		cmd.Args = cobra.ArbitraryArgs
		cmd.RunE = func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown command %q for %q (see %s --help)", args[0], c.CommandPath(), c.CommandPath())
			}
			return c.Help()
		}
	}
	for _, sub := range cmd.Commands() {
		groupCommand(sub)
	}
}

// usageArgs wraps a cobra argument check so that a wrong argument count is
// a usage error (exit 2), as a flag error is.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usagef("%s: %v", cmd.CommandPath(), err)
		}
		return nil
	}
}

// noArgsUsage rejects positional arguments with a usage error.
func noArgsUsage(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s: unexpected argument %q", cmd.CommandPath(), args[0])
	}
	return nil
}
