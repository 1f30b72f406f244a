package tpcc

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/console"
	"benchpress/internal/registry"
	"benchpress/internal/target"
)

func init() {
	registry.Register(&registry.Meta{
		Name:  "tpcc",
		Short: "TPC-C (rev. 5.11): prepare, run, check, cleanup",
		Long: `TPC-C as specified in TPC-C 5.11: nine tables, five transactions dealt from a
true deck of cards (45/43/4/4/4), terminals bound to a home warehouse and district,
tpmC counted from New-Orders completed inside the measurement window.`,
		Commands: []registry.Command{prepareCommand, checkCommand, cleanupCommand},
		RunAt:    1,
		Run: registry.RunCommand{
			Use:   "run",
			Short: "Run the TPC-C mix and report tpmC, tpmTOTAL and latency per transaction",
			Example: `  benchpress tpcc run --target mysql://bench@127.0.0.1:3306/tpcc --terminals 8 --warmup 5s --duration 60s --json r.json
  benchpress tpcc run --target mysql://bench@lb1:3306,lb2:3306/tpcc --terminals 512 --duration 5m
  benchpress tpcc run --target postgres://bench@db:5432/tpcc --terminals 40 --wait --duration 30m`,
			New: NewRunOptions,
		},
	})
}

var checkCommand = registry.Command{
	Use:   "check",
	Short: "Verify the TPC-C consistency conditions (clause 3.3.2)",
	Long: `Runs the consistency conditions of clause 3.3.2 as set-based queries.
By default the cheap ones (1, 2, 3, 4, 5, 7, 8, 9); --all adds 6, 10 and 12.
Condition 11 holds only before the first Delivery and is checked only then.
Exit code 8 if any condition is violated.`,
	Example: `  benchpress tpcc check --target mysql://bench@127.0.0.1:3306/tpcc
  benchpress tpcc check --target postgres://bench@db:5432/tpcc --all`,
	Args: registry.ArgsNone,
	Bind: func(fs *pflag.FlagSet) registry.Action {
		var tf target.Flags
		var names string
		var all bool
		tf.Register(fs, DefaultTarget)
		registerNames(fs, &names)
		fs.BoolVar(&all, "all", false, "also run the expensive conditions 6, 10 and 12")
		return func(ctx context.Context, env *registry.Env, _ []string) error {
			n, err := resolveNames(names)
			if err != nil {
				return err
			}
			return registry.WithAdmin(ctx, env, &tf, func(_ *target.Connector, admin target.Conn) error {
				if _, err := ReadMeta(ctx, admin, n); err != nil {
					return err
				}
				start := time.Now()
				checks, err := Check(ctx, admin, n, all)
				console.Checks(env.Out, checks)
				if err == nil {
					fmt.Fprintf(env.Out, "consistency check passed (%d conditions, %.1fs)\n", len(checks), time.Since(start).Seconds())
				}
				return err
			})
		}
	},
}

var cleanupCommand = registry.Command{
	Use:     "cleanup",
	Short:   "Drop the TPC-C tables",
	Example: `  benchpress tpcc cleanup --target mysql://bench@127.0.0.1:3306/tpcc`,
	Args:    registry.ArgsNone,
	Bind: func(fs *pflag.FlagSet) registry.Action {
		var tf target.Flags
		var names string
		tf.Register(fs, DefaultTarget)
		registerNames(fs, &names)
		return func(ctx context.Context, env *registry.Env, _ []string) error {
			n, err := resolveNames(names)
			if err != nil {
				return err
			}
			err = registry.WithAdmin(ctx, env, &tf, func(_ *target.Connector, admin target.Conn) error {
				return Cleanup(ctx, admin, n)
			})
			if err != nil {
				return err
			}
			fmt.Fprintln(env.Out, "TPC-C tables dropped")
			return nil
		}
	},
}
