package sysbench

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/console"
	"benchpress/internal/monitor"
	"benchpress/internal/registry"
	"benchpress/internal/target"
)

var prepareCommand = registry.Command{
	Args:  registry.ArgsChecked,
	Use:   "prepare [TEST]",
	Short: "Create sbtest1..sbtestN and load --table-size rows each",
	Long: `Creates the tables like sysbench's prepare: loader thread t creates tables t+1,
t+1+threads, ...; rows go in with multi-row INSERTs, then the index k_N is built.
TEST matters only for oltp_insert with --auto-inc=off (empty tables); the k
column is drawn from --rand-type's distribution, as sysbench's prepare does.
The URL's database is created first where it does not exist (not on a sharding
proxy, whose logical databases are its configuration).`,
	RunOnly: eventOptions,
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

// eventOptions are the options that shape only the run's events.
var eventOptions = []string{"range-size", "point-selects", "simple-ranges", "sum-ranges", "order-ranges",
	"distinct-ranges", "index-updates", "non-index-updates", "delete-inserts", "range-selects", "skip-trx", "rand-seed"}

func (c *common) prepare(ctx context.Context, env *registry.Env, args []string, threads int) error {
	test, err := testArg(args, false)
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	if err := registry.AtLeastOne("--threads", threads); err != nil {
		errs = append(errs, err)
	}
	var w *Workload
	if err == nil {
		if w, err = workloadFor(test, c.opts); err != nil {
			errs = append(errs, err)
		}
	}
	return registry.Connected(env, &c.tf, errs, func(conn *target.Connector) error {
		if err := registry.EnsureDatabase(ctx, env, conn); err != nil {
			return err
		}
		return prepareTables(ctx, env, conn, w, threads)
	})
}

// prepareTables loads w's tables through conn with progress lines.
func prepareTables(ctx context.Context, env *registry.Env, conn *target.Connector, w *Workload, threads int) error {
	o := w.Options()
	rows := int64(w.PrepareRows()) // oltp_insert with auto_inc off: empty tables
	fmt.Fprintf(env.Err, "preparing sysbench: %d table(s) x %s rows on %s with %d thread(s)\n",
		o.Tables, console.FI(rows), conn.Target().Redacted(), threads)
	prog := console.NewRowProgress(env.Err, env.IsTTY, int64(o.Tables)*rows)
	start := time.Now()
	if err := w.Prepare(ctx, conn, threads, func(_ string, rows int64) { prog.Add(rows) }); err != nil {
		return registry.Interrupted(ctx, err)
	}
	prog.Done()
	fmt.Fprintf(env.Out, "prepared %d table(s) of %s rows in %s\n", o.Tables, console.FI(rows),
		time.Since(start).Round(100*time.Millisecond))
	monitor.PrintDataSize(ctx, env.Out, env.Err, conn, 0)
	return nil
}

var cleanupCommand = registry.Command{
	Args:  registry.ArgsChecked,
	Use:   "cleanup [TEST]",
	Short: "Drop sbtest1..sbtestN",
	RunOnly: append([]string{"table-size", "auto-inc", "secondary", "create-secondary", "mysql-storage-engine",
		"create-table-options", "rand-type", "rand-spec-iter", "rand-spec-pct", "rand-spec-res", "rand-pareto-h",
		"rand-zipfian-exp", "isolation"}, eventOptions...),
	Example: `  benchpress sysbench cleanup --target mysql://bench@127.0.0.1:3306/sb --tables 4`,
	Bind: func(fs *pflag.FlagSet) registry.Action {
		var c common
		c.register(fs)
		check := func(args []string) error {
			if _, err := testArg(args, false); err != nil {
				return err
			}
			return registry.AtLeastOne("--tables", c.opts.Tables)
		}
		return registry.AdminAction(&c.tf, check, func(ctx context.Context, env *registry.Env, admin target.Conn) error {
			if err := Cleanup(ctx, admin, c.opts); err != nil {
				return err
			}
			fmt.Fprintf(env.Out, "dropped sbtest1..sbtest%d\n", c.opts.Tables)
			return nil
		})
	},
}
