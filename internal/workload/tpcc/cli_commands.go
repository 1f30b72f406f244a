package tpcc

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/console"
	"benchpress/internal/load"
	"benchpress/internal/monitor"
	"benchpress/internal/registry"
	"benchpress/internal/target"
	"benchpress/internal/usage"
)

// parseWarehouseRange parses --warehouse-range "A-B" (or a single "A").
func parseWarehouseRange(s string) (lo, hi int, err error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = a
	}
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil || lo < 1 || hi < lo {
		return 0, 0, usage.Errorf("--warehouse-range must be A-B with 1 <= A <= B (got %q)", s)
	}
	return lo, hi, nil
}

// prepareOptions are the flags of `tpcc prepare`.
type prepareOptions struct {
	tf                          target.Flags
	names                       string
	warehouses, threads         int
	seed                        uint64
	drop, fk, resume, items     bool
	method, wrange, output, dir string
}

var prepareCommand = registry.Command{
	Use:   "prepare",
	Short: "Create the TPC-C tables and load N warehouses",
	Long: `Create the TPC-C tables and load N warehouses in parallel units (ITEM in chunks,
every other table per warehouse), each unit in its own transaction that also records
it as done, so that an interrupted load can be continued with --resume.

Rows are streamed with the server's bulk path (--load-method auto): LOAD DATA LOCAL
INFILE on MySQL/MariaDB, COPY on PostgreSQL, prepared INSERTs on SQLite. When the
target refuses the bulk path (a server with local_infile=0, a sharding proxy that
does not route LOAD DATA or COPY), benchpress warns once, naming the cause, and
loads with batched INSERT.

The URL's database is created first where it does not exist, as go-tpc does (not
on a sharding proxy, whose logical databases are its configuration).`,
	Example: `  benchpress tpcc prepare --target mysql://bench@127.0.0.1:3306/tpcc --warehouses 4 --threads 2
  PGPASSWORD=secret benchpress tpcc prepare --target postgres://bench@db:5432/tpcc --warehouses 100 --threads 8 --drop
  benchpress tpcc prepare --target mysql://bench@proxy:3307/tpcc --names bmsql --warehouses 1000
  benchpress tpcc prepare --target mysql://bench@db/tpcc --resume               # continue after Ctrl-C
  benchpress tpcc prepare --target mysql://bench@db/tpcc --warehouse-range 101-200  # add warehouses`,
	Bind: func(fs *pflag.FlagSet) registry.Action {
		o := &prepareOptions{}
		o.tf.Register(fs, registry.DefaultTarget)
		registerNames(fs, &o.names)
		fs.IntVarP(&o.warehouses, "warehouses", "w", 1, "number of warehouses to load")
		fs.IntVarP(&o.threads, "threads", "T", 4, "parallel loader sessions (SQLite loads with one writer)")
		fs.Uint64Var(&o.seed, "seed", 1, "data seed: the same seed gives identical data")
		fs.BoolVar(&o.drop, "drop", false, "drop existing TPC-C tables first")
		fs.BoolVar(&o.fk, "fk", false, "add the optional foreign keys after loading")
		fs.StringVar(&o.method, "load-method", "auto", "how rows reach the server: auto (LOAD DATA / COPY where allowed, else INSERT), bulk (fail if refused), insert (batched INSERT)")
		fs.StringVar(&o.wrange, "warehouse-range", "", "load only warehouses `A-B` (into an existing data set: other warehouses untouched, its seed reused)")
		fs.BoolVar(&o.resume, "resume", false, "continue an interrupted load: skip units recorded as done, reload the rest, finish indexes")
		fs.StringVar(&o.output, "output", "db", "db: load the target; csv: write CSV files <table>.<unit>.csv to --dir instead (NULL written as the --target's loader reads it: \\N for MySQL LOAD DATA, empty for PostgreSQL COPY ... (FORMAT csv))")
		fs.StringVar(&o.dir, "dir", "", "directory for --output csv")
		fs.BoolVar(&o.items, "items", false, "with --warehouse-range or --resume on an existing data set: reload ITEM too")
		return func(ctx context.Context, env *registry.Env, _ []string) error { return o.run(ctx, env, fs) }
	},
}

func (o *prepareOptions) run(ctx context.Context, env *registry.Env, fs *pflag.FlagSet) error {
	var errs []error
	for _, err := range []error{registry.AtLeastOne("--warehouses", o.warehouses), registry.AtLeastOne("--threads", o.threads)} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	lm, err := load.ParseMethod(o.method)
	if err != nil {
		errs = append(errs, usage.Errorf("--load-method: %v", err))
	}
	var wlo, whi int
	if o.wrange != "" {
		if wlo, whi, err = parseWarehouseRange(o.wrange); err != nil {
			errs = append(errs, err)
		}
		if fs.Changed("warehouses") {
			errs = append(errs, usage.Errorf("--warehouses and --warehouse-range exclude each other"))
		}
	}
	switch o.output {
	case "db", "":
	case "csv":
		if o.dir == "" {
			errs = append(errs, usage.Errorf("--output csv needs --dir"))
		}
		if o.resume {
			errs = append(errs, usage.Errorf("--output csv cannot --resume"))
		}
	default:
		errs = append(errs, usage.Errorf("--output must be db or csv (got %q)", o.output))
	}
	if o.resume && o.drop {
		errs = append(errs, usage.Errorf("--resume and --drop exclude each other"))
	}
	names, err := resolveNames(o.names)
	if err != nil {
		errs = append(errs, err)
	}
	if err := usage.Join(errs); err != nil {
		return err
	}
	if o.output == "csv" {
		return o.exportCSV(ctx, env, ExportConfig{Warehouses: o.warehouses, WarehouseLo: wlo,
			WarehouseHi: whi, Items: o.items || whi == 0, Threads: o.threads, Seed: o.seed, Names: names, Dir: o.dir})
	}
	conn, err := o.tf.Connect(env.Target)
	if err != nil {
		return err
	}
	defer conn.Close()
	what := fmt.Sprintf("%d warehouse(s)", o.warehouses)
	switch {
	case o.resume && o.wrange != "":
		what = "resuming warehouses " + o.wrange
	case o.resume:
		what = "resuming the interrupted load"
	case o.wrange != "":
		what = "warehouses " + o.wrange
	}
	if err := registry.EnsureDatabase(ctx, env, conn); err != nil {
		return err
	}
	fmt.Fprintf(env.Err, "preparing TPC-C: %s on %s with %d thread(s), names %s, seed %d, load method %s\n",
		what, conn.Target().Redacted(), o.threads, names.Scheme, o.seed, lm)
	start := time.Now()
	st, err := Prepare(ctx, conn, PrepareConfig{
		Warehouses: o.warehouses, Threads: o.threads, Seed: o.seed, Drop: o.drop, FK: o.fk,
		Names: names, Progress: console.LoadProgress(env.Err, env.IsTTY), Method: lm,
		WarehouseLo: wlo, WarehouseHi: whi, Items: o.items, Resume: o.resume,
	})
	for _, w := range st.Warnings {
		fmt.Fprintf(env.Err, "warning: %s\n", w)
	}
	if err != nil {
		return registry.Interrupted(ctx, err)
	}
	el := time.Since(start)
	loaded := o.warehouses
	switch {
	case whi > 0:
		loaded = whi - wlo + 1
	case o.resume:
		loaded = st.Meta.Warehouses
	}
	fmt.Fprintf(env.Out, "prepared %d warehouse(s) in %s (%.2f s per warehouse), %s rows, %s rows/s\n",
		loaded, el.Round(100*time.Millisecond), el.Seconds()/float64(max(loaded, 1)), console.FI(st.Rows),
		console.F1(float64(st.Rows)/max(st.Load.Seconds(), 1e-9)))
	fmt.Fprintf(env.Out, "  load %s, indexes %s, %d unit(s); data set has %d warehouse(s)\n",
		st.Load.Round(100*time.Millisecond), st.Indexes.Round(100*time.Millisecond), st.Units, st.Meta.Warehouses)
	if st.Incomplete != "" {
		// Not an error: with one machine per range the others may still be
		// loading. The status stays "loading" and runs refuse the set.
		fmt.Fprintf(env.Out, "  data set NOT complete: %s not loaded yet (another range still loading, or an earlier load that failed: --resume once no other load is running); runs refuse it until then\n", st.Incomplete)
	}
	if len(st.Methods) > 0 {
		tabs := console.SortedKeys(st.Methods)
		parts := make([]string, len(tabs))
		for i, t := range tabs {
			parts[i] = t + "=" + st.Methods[t]
		}
		fmt.Fprintf(env.Out, "  method: %s\n", strings.Join(parts, ", "))
	}
	o.dataSize(ctx, env, conn, names, st.Bytes)
	return nil
}

// dataSize prints the size/compression line (seed 002) after a full load
// and keeps the raw bytes generated in the metadata table, so every later
// run's result states the ratio; after a partial load (--warehouse-range,
// --resume) the raw bytes of the whole data set are unknown and left out.
func (o *prepareOptions) dataSize(ctx context.Context, env *registry.Env, conn *target.Connector, n Names, raw int64) {
	if o.wrange != "" || o.resume {
		raw = 0
	} else if raw > 0 && conn.Target().Kind != target.SQLite {
		if admin, err := conn.Connect(ctx); err == nil {
			_ = setMeta(ctx, admin, n, monitor.RawBytesKey, strconv.FormatInt(raw, 10))
			admin.Close()
		}
	}
	monitor.PrintDataSize(ctx, env.Out, env.Err, conn, raw)
}

// exportCSV writes the data set as CSV files instead of loading it; the
// --target only selects the NULL convention (no connection is made).
func (o *prepareOptions) exportCSV(ctx context.Context, env *registry.Env, cfg ExportConfig) error {
	cfg.Dialect = load.CSVMySQL
	if tg, err := target.Parse(o.tf.URL); err == nil && tg.Kind == target.Postgres {
		cfg.Dialect = load.CSVPostgres
	}
	st, err := ExportCSV(ctx, cfg)
	if err != nil {
		return registry.Interrupted(ctx, err)
	}
	fmt.Fprintf(env.Out, "wrote %d CSV file(s) to %s: %s rows, %.1f MB in %s (%s rows/s)\n", st.Files, cfg.Dir,
		console.FI(st.Rows), float64(st.Bytes)/1e6, st.Total.Round(100*time.Millisecond),
		console.F1(float64(st.Rows)/max(st.Total.Seconds(), 1e-9)))
	return nil
}

// namesFlag is --names of check and cleanup, checked before connecting.
type namesFlag struct {
	raw   string
	names Names
}

func (n *namesFlag) register(fs *pflag.FlagSet) { registerNames(fs, &n.raw) }

func (n *namesFlag) check([]string) (err error) {
	n.names, err = resolveNames(n.raw)
	return err
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
	Bind: func(fs *pflag.FlagSet) registry.Action {
		var tf target.Flags
		var n namesFlag
		var all bool
		tf.Register(fs, registry.DefaultTarget)
		n.register(fs)
		fs.BoolVar(&all, "all", false, "also run the expensive conditions 6, 10 and 12")
		return registry.AdminAction(&tf, n.check, func(ctx context.Context, env *registry.Env, admin target.Conn) error {
			if _, err := ReadMeta(ctx, admin, n.names); err != nil {
				return err
			}
			start := time.Now()
			checks, err := Check(ctx, admin, n.names, all)
			console.Checks(env.Out, checks)
			if err == nil {
				fmt.Fprintf(env.Out, "consistency check passed (%d conditions, %.1fs)\n", len(checks), time.Since(start).Seconds())
			}
			return err
		})
	},
}

var cleanupCommand = registry.Command{
	Use:     "cleanup",
	Short:   "Drop the TPC-C tables",
	Example: `  benchpress tpcc cleanup --target mysql://bench@127.0.0.1:3306/tpcc`,
	Bind: func(fs *pflag.FlagSet) registry.Action {
		var tf target.Flags
		var n namesFlag
		tf.Register(fs, registry.DefaultTarget)
		n.register(fs)
		return registry.AdminAction(&tf, n.check, func(ctx context.Context, env *registry.Env, admin target.Conn) error {
			if err := Cleanup(ctx, admin, n.names); err != nil {
				return err
			}
			fmt.Fprintln(env.Out, "TPC-C tables dropped")
			return nil
		})
	},
}
