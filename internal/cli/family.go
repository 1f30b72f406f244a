package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"benchpress/internal/partition"
	"benchpress/internal/registry"
	"benchpress/internal/results"
	"benchpress/internal/runwatch"
	"benchpress/internal/target"
	"benchpress/internal/workload"
	_ "benchpress/internal/workload/all" // every workload family registers itself
)

// familyCommands builds `benchpress <family> <command>` for every
// registered workload family.
func familyCommands(app *App) []*cobra.Command {
	var out []*cobra.Command
	for _, m := range registry.All() {
		cmd := &cobra.Command{Use: m.Name, Short: m.Short, Long: m.Long, Args: noArgsUsage}
		cmd.AddCommand(runCommand(app, m))
		for _, c := range m.Commands() {
			cmd.AddCommand(subCommand(app, m, c))
		}
		out = append(out, cmd)
	}
	return out
}

// subCommand wraps a family's prepare/load/check/cleanup command.
func subCommand(app *App, m *registry.Meta, c registry.Command) *cobra.Command {
	cmd := &cobra.Command{Use: c.Use, Short: c.Short, Long: c.Long, Example: c.Example}
	switch c.Args {
	case registry.ArgsNone:
		cmd.Args = noArgsUsage
	case registry.ArgsAtMostOne:
		cmd.Args = usageArgs(cobra.MaximumNArgs(1))
	}
	action := c.Bind(cmd.Flags())
	hideRunOnly(cmd, m.Name, c.RunOnly)
	if len(c.RunOnly) > 0 {
		acceptRunFlags(cmd, m)
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		return action(cmd.Context(), app.env(), args)
	}
	return cmd
}

// hideRunOnly keeps the run's options out of a prepare/load/check/cleanup
// command's --help; they still parse (registry.Command.RunOnly). The
// run's --socket-io is hidden from every such command.
func hideRunOnly(cmd *cobra.Command, family string, runOnly []string) {
	fs := cmd.Flags()
	if fs.Lookup("socket-io") != nil {
		_ = fs.MarkHidden("socket-io")
	}
	for _, name := range runOnly {
		if err := fs.MarkHidden(name); err != nil {
			panic(fmt.Sprintf("%s %s: run-only flag: %v", family, cmd.Name(), err))
		}
	}
	if len(runOnly) > 0 {
		if cmd.Long == "" {
			cmd.Long = cmd.Short + "."
		}
		cmd.Long += fmt.Sprintf("\n\nThe run's options (%s run --help) are accepted and ignored here, so that one\ncommand line serves prepare, run and cleanup, as with sysbench.", family)
	}
}

// acceptRunFlags declares on cmd, hidden and bound to nothing it reads,
// every flag of the family's run command that cmd lacks (--time,
// --warmup-time, --report-interval, --json, --min-success, --no-watch...):
// sysbench takes one command line for prepare, run and cleanup, and so
// does a command with run-only options (registry.Command.RunOnly). The
// flags the CLI adds to every run (the run policy's, addRunPolicyFlags;
// the watch's, addWatchFlags) are declared here too, bound to values
// nothing reads; addRunPolicyFlags skips a hidden --json.
func acceptRunFlags(cmd *cobra.Command, m *registry.Meta) {
	run := pflag.NewFlagSet(m.Name+" run", pflag.ContinueOnError)
	m.Run.New().Flags(run)
	run.Float64("min-success", results.DefaultMinSuccessPct, "")
	run.String("arrivals", "uniform", "")
	runwatch.NewOptions().AddFlags(run)
	fs := cmd.Flags()
	run.VisitAll(func(f *pflag.Flag) {
		if fs.Lookup(f.Name) != nil || (f.Shorthand != "" && fs.ShorthandLookup(f.Shorthand) != nil) {
			return
		}
		fs.AddFlag(f)
		_ = fs.MarkHidden(f.Name)
	})
}

// runCommand is `benchpress <family> run`: the family's options, then the
// generic run (executeRun), the family's printer and --json.
func runCommand(app *App, m *registry.Meta) *cobra.Command {
	rc := m.Run
	opts := rc.New()
	cmd := &cobra.Command{Use: rc.Use, Short: rc.Short, Long: rc.Long, Example: rc.Example}
	if rc.Variant == nil {
		cmd.Args = noArgsUsage
	}
	opts.Flags(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		variant := ""
		if rc.Variant != nil {
			v, err := rc.Variant(args)
			if err != nil {
				return err
			}
			variant = v
		}
		started := time.Now()
		run, spec, err := runOptions(cmd.Context(), app, opts, variant, cmd.Flags(), false, childCmd{args: partition.ChildArgs(m.Name, args, cmd.Flags()), env: partition.ChildEnv(cmd.Flags())})
		if run == nil && err != nil {
			// No result: --json still gets the refusal, so that a script
			// reading it never finds a file an earlier run left there.
			saveRefused(app, opts, runName(m.Name, variant), started, err)
		}
		if spec == nil {
			return err
		}
		return finishRun(app, run, err, opts.JSONPath(), spec.Unit, spec.Print)
	}
	return cmd
}

// childCmd is how --processes starts the children of a run: their command
// line (nil: --processes is not available) and the variables added to the
// environment they inherit (partition.Local.Env).
type childCmd struct {
	args func() []string
	env  []string
}

// runOptions validates opts (parsed into fs) for variant and runs them.
// children is the child command for --processes.
func runOptions(ctx context.Context, app *App, opts registry.RunOptions, variant string, fs *pflag.FlagSet, quiet bool, children childCmd) (*results.Run, *registry.Spec, error) {
	if err := joinUsage(opts.Resolve(variant, fs)); err != nil {
		return nil, nil, err
	}
	return runResolved(ctx, app, opts, quiet, children)
}

// runResolved connects, builds the family's run, executes it and runs the
// family's After hook. The result comes back also when interrupted. With
// --partition it runs this process's partition; with --processes it runs
// every partition as a child process (started as children says) and
// merges them (runLocal).
func runResolved(ctx context.Context, app *App, opts registry.RunOptions, quiet bool, children childCmd) (*results.Run, *registry.Spec, error) {
	part, err := opts.Partition().Resolve()
	if err != nil {
		return nil, nil, err
	}
	conn, err := opts.Target().Connect(app.env().Target)
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	spec, err := opts.Build(ctx, app.env(), conn, quiet)
	if err != nil {
		return nil, nil, err
	}
	if opts.Partition().Processes > 0 {
		// The children share the server: the limit is checked for all
		// their terminals here (each child checks its own share too;
		// partition 0 also the whole run against the limit itself).
		checkConnBudget(ctx, app.Err, conn, spec.Runner.Terminals, 0, false)
		// The children share this machine: the parent watches it (and the
		// plan's or --watch hosts) through their run, and gives the merged
		// result the figures of the merged window.
		watch := runwatch.Start(ctx, app.watch, runwatch.Spec{Name: spec.Name, Ops: spec.Workload.Ops(),
			Terminals: spec.Runner.Terminals, Connector: conn, HostsOnly: true})
		defer watch.Close()
		run, err := runLocal(ctx, app, opts.Partition(), children, quiet)
		if from, to, ok := localWindow(run); ok {
			watch.Finish(ctx, run, from, to)
		}
		if run != nil && err == nil && spec.After != nil {
			err = afterRun(ctx, spec, conn, run)
		}
		return run, spec, err
	}
	rs := &runSpec{Name: spec.Name, Workload: spec.Workload, Connector: conn,
		Runner: spec.Runner, Config: spec.Config, Live: spec.Live, Quiet: quiet, Part: part}
	if part != nil {
		if spec.After != nil {
			return nil, nil, &UsageError{Err: partition.ErrAfterRun}
		}
		if rs.Workload, err = part.Apply(rs.Workload, &rs.Runner); err != nil {
			return nil, nil, err
		}
	}
	run, err := executeRun(ctx, app, rs)
	if run != nil && err == nil && spec.After != nil {
		err = afterRun(ctx, spec, conn, run)
	}
	return run, spec, err
}

// afterRun runs the spec's after-run step (TPC-C's --check) on a measured
// run. One that did not finish (Ctrl-C, a lost session) leaves the run
// marked (results.AfterUnfinished): never "verdict: OK" over a partial
// list of passed checks.
func afterRun(ctx context.Context, spec *registry.Spec, conn *target.Connector, run *results.Run) error {
	err := spec.After(ctx, conn, run)
	if err != nil && !errors.Is(err, workload.ErrCheckFailed) {
		results.AfterUnfinished(run, err, ctx.Err() != nil)
	}
	return err
}

// runName is the workload's name as a result saves it: "tpcc",
// "sysbench/oltp_read_write", "ycsb/a".
func runName(family, variant string) string {
	if variant == "" {
		return family
	}
	return family + "/" + variant
}

// saveRefused writes the record of a run that produced no result to --json
// (results.Refused: verdict failed, the error, the hint); a failure to write
// it is printed, the run's own error stays the command's.
func saveRefused(app *App, opts registry.RunOptions, name string, started time.Time, err error) {
	path := opts.JSONPath()
	if path == "" {
		return
	}
	r := results.Refused(name, opts.Target().URL, string(target.KindOf(opts.Target().URL)), app.Version, started, err, target.Hint(err))
	if errors.Is(err, ErrInterrupted) || errors.Is(err, context.Canceled) {
		// Stopped by the user before a result could be made (while
		// connecting, or --processes' partitions, which are not merged
		// when interrupted): not a failed run, and nothing measured here.
		r.Status = "interrupted"
		r.VerdictReasons = []string{"interrupted before a result was made: " + err.Error()}
	}
	if werr := writeJSON(app, path, r); werr != nil {
		fmt.Fprintf(app.Err, "benchpress: %v\n", werr)
	}
}
