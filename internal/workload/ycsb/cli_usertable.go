package ycsb

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/console"
	"benchpress/internal/registry"
	"benchpress/internal/target"
	"benchpress/internal/usage"
)

var loadCommand = registry.Command{
	Args:  registry.ArgsChecked,
	Use:   "load WORKLOAD",
	Short: "Create usertable and insert recordcount records (YCSB load phase)",
	Long: `The YCSB load phase: creates usertable if it does not exist and inserts the
key numbers [insertstart, insertstart+insertcount) with random fields, split into
--threads contiguous ranges loaded in parallel with multi-row INSERTs.
Load with A before running A, B, C, F and D; load again (after cleanup) for E.
The URL's database is created first where it does not exist (not on a sharding
proxy, whose logical databases are its configuration).`,
	Example: `  benchpress ycsb load a --target mysql://bench@127.0.0.1:3306/ycsb --records 1000000 --threads 8
  benchpress ycsb load custom --properties workloads/myload --target postgres://bench@db:5432/ycsb --drop`,
	Bind: func(fs *pflag.FlagSet) registry.Action {
		var c common
		var threads int
		var drop bool
		c.register(fs)
		fs.IntVar(&threads, "threads", 4, "parallel loader sessions (the threadcount property when not given)")
		fs.BoolVar(&drop, "drop", false, "drop usertable first")
		return func(ctx context.Context, env *registry.Env, args []string) error {
			return c.load(ctx, env, args, fs, threads, drop)
		}
	},
}

func (c *common) load(ctx context.Context, env *registry.Env, args []string, fs *pflag.FlagSet, threads int, drop bool) error {
	name, err := workloadArg(args)
	if err != nil {
		return err
	}
	p, explicit, err := c.resolve(name)
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	if !fs.Changed("threads") && explicit["threadcount"] {
		threads, _ = strconv.Atoi(p["threadcount"])
	}
	if err := registry.AtLeastOne("--threads", threads); err != nil {
		errs = append(errs, err)
	}
	var cfg Config
	if err == nil {
		if cfg, err = ParseConfig(p); err != nil {
			errs = append(errs, &usage.Error{Err: err})
		}
	}
	return registry.Connected(env, &c.tf, errs, func(conn *target.Connector) error {
		if err := registry.EnsureDatabase(ctx, env, conn); err != nil {
			return err
		}
		return loadRecords(ctx, env, conn, name, p, cfg, threads, drop)
	})
}

// loadRecords runs the load phase through conn with progress lines and
// YCSB's summary lines.
func loadRecords(ctx context.Context, env *registry.Env, conn *target.Connector, name string, p Props, cfg Config, threads int, drop bool) error {
	if drop {
		admin, err := conn.Connect(ctx)
		if err != nil {
			return err
		}
		err = Cleanup(ctx, admin, p)
		admin.Close()
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(env.Err, "loading YCSB %s: %s records into %s on %s with %d thread(s)\n",
		name, console.FI(cfg.InsertCount), cfg.Table, conn.Target().Redacted(), threads)
	prog := console.NewRowProgress(env.Err, env.IsTTY, cfg.InsertCount)
	start := time.Now()
	if err := Load(ctx, conn, p, threads, prog.Add); err != nil {
		return registry.Interrupted(ctx, err)
	}
	prog.Done()
	el := time.Since(start)
	fmt.Fprintf(env.Out, "[OVERALL], RunTime(ms), %d\n", el.Milliseconds())
	fmt.Fprintf(env.Out, "[OVERALL], Throughput(ops/sec), %.1f\n", float64(cfg.InsertCount)/el.Seconds())
	fmt.Fprintf(env.Out, "[INSERT], Operations, %d\n", cfg.InsertCount)
	fmt.Fprintf(env.Out, "[INSERT], Return=OK, %d\n", cfg.InsertCount)
	return nil
}

var cleanupCommand = registry.Command{
	Use:     "cleanup [WORKLOAD]",
	Short:   "Drop usertable (or the table property's table)",
	Example: `  benchpress ycsb cleanup --target mysql://bench@127.0.0.1:3306/ycsb`,
	Args:    registry.ArgsAtMostOne,
	Bind: func(fs *pflag.FlagSet) registry.Action {
		var c common
		var p Props
		c.register(fs)
		check := func(args []string) (err error) {
			name := "a"
			if len(args) == 1 {
				name = args[0]
			}
			p, _, err = c.resolve(name)
			return err
		}
		return registry.AdminAction(&c.tf, check, func(ctx context.Context, env *registry.Env, admin target.Conn) error {
			if err := Cleanup(ctx, admin, p); err != nil {
				return err
			}
			table := p["table"]
			if table == "" {
				table = "usertable"
			}
			fmt.Fprintf(env.Out, "dropped %s\n", table)
			return nil
		})
	},
}
