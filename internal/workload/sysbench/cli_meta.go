package sysbench

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/console"
	"benchpress/internal/registry"
	"benchpress/internal/target"
	"benchpress/internal/usage"
)

func init() {
	registry.Register(&registry.Meta{
		Name:  "sysbench",
		Short: "sysbench OLTP tests (oltp_read_write, oltp_point_select, ...): prepare, run, cleanup",
		Long: `The sysbench 1.0 OLTP Lua tests (oltp_common.lua and friends) with sysbench's
option names and defaults: sbtest1..sbtestN tables, the same statements per event,
the same read/write/other query classification and the same final report.

Tests: ` + strings.Join(Tests(), ", ") + `

Option names follow sysbench; both --table-size and --table_size are accepted,
and booleans take on/off as well as true/false.

The id distribution defaults to --rand-type=special, the default of sysbench
1.0.20 (the last release, the one Linux distributions ship and most published
figures come from): 75 % of ids fall in the middle 1 % of each table. Use
--rand-type=uniform to compare with sysbench built from master.`,
		Commands:     []registry.Command{prepareCommand, cleanupCommand},
		RunAt:        1,
		Run:          runCommand,
		Variants:     Tests(),
		VariantHint:  "test",
		CheckVariant: checkTest,
	})
}

var prepareCommand = registry.Command{
	Use:   "prepare [TEST]",
	Short: "Create sbtest1..sbtestN and load --table-size rows each",
	Long: `Creates the tables like sysbench's prepare: loader thread t creates tables t+1,
t+1+threads, ...; rows go in with multi-row INSERTs, then the index k_N is built.
TEST matters only for oltp_insert with --auto-inc=off (empty tables).`,
	Example: `  benchpress sysbench prepare oltp_read_write --target mysql://bench@127.0.0.1:3306/sb --tables 4 --table-size 100000 --threads 4
  PGPASSWORD=secret benchpress sysbench prepare --target postgres://bench@db:5432/sb --tables 16 --table-size 1000000 --threads 16`,
	Bind: func(fs *pflag.FlagSet) registry.Action {
		var c common
		var threads int
		c.register(fs)
		fs.IntVar(&threads, "threads", 1, "parallel loader sessions (at most one per table)")
		return func(ctx context.Context, env *registry.Env, args []string) error {
			return c.prepare(ctx, env, args, threads)
		}
	},
}

func (c *common) prepare(ctx context.Context, env *registry.Env, args []string, threads int) error {
	test, err := testArg(args, false)
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	if threads < 1 {
		errs = append(errs, usage.Errorf("--threads must be >= 1 (got %d)", threads))
	}
	var w *Workload
	if err == nil {
		if w, err = c.workloadFor(test); err != nil {
			errs = append(errs, err)
		}
	}
	if err := usage.Join(errs); err != nil {
		return err
	}
	conn, err := c.tf.Connect(env.Target)
	if err != nil {
		return err
	}
	defer conn.Close()
	o := w.Options()
	fmt.Fprintf(env.Err, "preparing sysbench: %d table(s) x %s rows on %s with %d thread(s)\n",
		o.Tables, console.FI(int64(o.TableSize)), conn.Target().Redacted(), threads)
	prog := console.NewRowProgress(env.Err, env.IsTTY, int64(o.Tables)*int64(o.TableSize))
	start := time.Now()
	if err := w.Prepare(ctx, conn, threads, func(_ string, rows int64) { prog.Add(rows) }); err != nil {
		return registry.Interrupted(ctx, err)
	}
	prog.Done()
	fmt.Fprintf(env.Out, "prepared %d table(s) of %s rows in %s\n", o.Tables, console.FI(int64(o.TableSize)),
		time.Since(start).Round(100*time.Millisecond))
	return nil
}

var cleanupCommand = registry.Command{
	Use:     "cleanup [TEST]",
	Short:   "Drop sbtest1..sbtestN",
	Example: `  benchpress sysbench cleanup --target mysql://bench@127.0.0.1:3306/sb --tables 4`,
	Bind: func(fs *pflag.FlagSet) registry.Action {
		var c common
		c.register(fs)
		return func(ctx context.Context, env *registry.Env, args []string) error {
			if _, err := testArg(args, false); err != nil {
				return err
			}
			if c.opts.Tables < 1 {
				return usage.Errorf("--tables must be >= 1 (got %d)", c.opts.Tables)
			}
			err := registry.WithAdmin(ctx, env, &c.tf, func(_ *target.Connector, admin target.Conn) error {
				return Cleanup(ctx, admin, c.opts)
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Out, "dropped sbtest1..sbtest%d\n", c.opts.Tables)
			return nil
		}
	},
}
