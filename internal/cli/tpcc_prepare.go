package cli

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"benchpress/internal/load"
	"benchpress/internal/target"
	"benchpress/internal/workload/tpcc"
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
		return 0, 0, usagef("--warehouse-range must be A-B with 1 <= A <= B (got %q)", s)
	}
	return lo, hi, nil
}

func newTPCCPrepareCmd(app *App) *cobra.Command {
	var c tpccCommon
	var warehouses, threads int
	var seed uint64
	var drop, fk, resume, items bool
	var method, wrange, output, dir string
	cmd := &cobra.Command{
		Use:   "prepare",
		Short: "Create the TPC-C tables and load N warehouses",
		Long: `Create the TPC-C tables and load N warehouses in parallel units (ITEM in chunks,
every other table per warehouse), each unit in its own transaction that also records
it as done, so that an interrupted load can be continued with --resume.

Rows are streamed with the server's bulk path (--load-method auto): LOAD DATA LOCAL
INFILE on MySQL/MariaDB (the server needs local_infile=1; otherwise benchpress warns
once and falls back to batched INSERT), COPY on PostgreSQL, prepared INSERTs on SQLite.`,
		Example: `  benchpress tpcc prepare --target mysql://bench@127.0.0.1:3306/tpcc --warehouses 4 --threads 2
  PGPASSWORD=secret benchpress tpcc prepare --target postgres://bench@db:5432/tpcc --warehouses 100 --threads 8 --drop
  benchpress tpcc prepare --target mysql://bench@proxy:3307/tpcc --names bmsql --warehouses 1000
  benchpress tpcc prepare --target mysql://bench@db/tpcc --resume               # continue after Ctrl-C
  benchpress tpcc prepare --target mysql://bench@db/tpcc --warehouse-range 101-200  # add warehouses`,
		Args: noArgsUsage,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var errs []error
			if warehouses < 1 {
				errs = append(errs, usagef("--warehouses must be >= 1 (got %d)", warehouses))
			}
			if threads < 1 {
				errs = append(errs, usagef("--threads must be >= 1 (got %d)", threads))
			}
			lm, err := load.ParseMethod(method)
			if err != nil {
				errs = append(errs, usagef("--load-method: %v", err))
			}
			var wlo, whi int
			if wrange != "" {
				if wlo, whi, err = parseWarehouseRange(wrange); err != nil {
					errs = append(errs, err)
				}
				if cmd.Flags().Changed("warehouses") {
					errs = append(errs, usagef("--warehouses and --warehouse-range exclude each other"))
				}
			}
			switch output {
			case "db", "":
			case "csv":
				if dir == "" {
					errs = append(errs, usagef("--output csv needs --dir"))
				}
				if resume {
					errs = append(errs, usagef("--output csv cannot --resume"))
				}
			default:
				errs = append(errs, usagef("--output must be db or csv (got %q)", output))
			}
			if resume && drop {
				errs = append(errs, usagef("--resume and --drop exclude each other"))
			}
			names, err := c.resolveNames()
			if err != nil {
				errs = append(errs, err)
			}
			if err := joinUsage(errs); err != nil {
				return err
			}
			ctx := cmd.Context()
			if output == "csv" {
				return exportTPCCCSV(app, cmd, &c, tpcc.ExportConfig{Warehouses: warehouses, WarehouseLo: wlo,
					WarehouseHi: whi, Items: items || whi == 0, Threads: threads, Seed: seed, Names: names, Dir: dir})
			}
			conn, err := c.tf.connect(app)
			if err != nil {
				return err
			}
			defer conn.Close()
			what := fmt.Sprintf("%d warehouse(s)", warehouses)
			switch {
			case resume && wrange != "":
				what = "resuming warehouses " + wrange
			case resume:
				what = "resuming the interrupted load"
			case wrange != "":
				what = "warehouses " + wrange
			}
			fmt.Fprintf(app.Err, "preparing TPC-C: %s on %s with %d thread(s), names %s, seed %d, load method %s\n",
				what, conn.Target().Redacted(), threads, names.Scheme, seed, lm)
			start := time.Now()
			st, err := tpcc.Prepare(ctx, conn, tpcc.PrepareConfig{
				Warehouses: warehouses, Threads: threads, Seed: seed, Drop: drop, FK: fk,
				Names: names, Progress: loadProgress(app), Method: lm,
				WarehouseLo: wlo, WarehouseHi: whi, Items: items, Resume: resume,
			})
			for _, w := range st.Warnings {
				fmt.Fprintf(app.Err, "warning: %s\n", w)
			}
			if err != nil {
				if ctx.Err() != nil {
					return ErrInterrupted
				}
				return err
			}
			el := time.Since(start)
			loaded := warehouses
			switch {
			case whi > 0:
				loaded = whi - wlo + 1
			case resume:
				loaded = st.Meta.Warehouses
			}
			fmt.Fprintf(app.Out, "prepared %d warehouse(s) in %s (%.2f s per warehouse), %s rows, %s rows/s\n",
				loaded, el.Round(100*time.Millisecond), el.Seconds()/float64(max(loaded, 1)), fi(st.Rows),
				f1(float64(st.Rows)/max(st.Load.Seconds(), 1e-9)))
			fmt.Fprintf(app.Out, "  load %s, indexes %s, %d unit(s); data set has %d warehouse(s)\n",
				st.Load.Round(100*time.Millisecond), st.Indexes.Round(100*time.Millisecond), st.Units, st.Meta.Warehouses)
			if len(st.Methods) > 0 {
				tabs := make([]string, 0, len(st.Methods))
				for t := range st.Methods {
					tabs = append(tabs, t)
				}
				sort.Strings(tabs)
				parts := make([]string, len(tabs))
				for i, t := range tabs {
					parts[i] = t + "=" + st.Methods[t]
				}
				fmt.Fprintf(app.Out, "  method: %s\n", strings.Join(parts, ", "))
			}
			return nil
		},
	}
	c.register(cmd.Flags())
	cmd.Flags().IntVarP(&warehouses, "warehouses", "w", 1, "number of warehouses to load")
	cmd.Flags().IntVarP(&threads, "threads", "T", 4, "parallel loader sessions (SQLite loads with one writer)")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "data seed: the same seed gives identical data")
	cmd.Flags().BoolVar(&drop, "drop", false, "drop existing TPC-C tables first")
	cmd.Flags().BoolVar(&fk, "fk", false, "add the optional foreign keys after loading")
	cmd.Flags().StringVar(&method, "load-method", "auto", "how rows reach the server: auto (LOAD DATA / COPY where allowed, else INSERT), bulk (fail if refused), insert (batched INSERT)")
	cmd.Flags().StringVar(&wrange, "warehouse-range", "", "load only warehouses `A-B` (into an existing data set: other warehouses untouched, its seed reused)")
	cmd.Flags().BoolVar(&resume, "resume", false, "continue an interrupted load: skip units recorded as done, reload the rest, finish indexes")
	cmd.Flags().StringVar(&output, "output", "db", "db: load the target; csv: write CSV files <table>.<unit>.csv to --dir instead (NULL written as the --target's loader reads it: \\N for MySQL LOAD DATA, empty for PostgreSQL COPY ... (FORMAT csv))")
	cmd.Flags().StringVar(&dir, "dir", "", "directory for --output csv")
	cmd.Flags().BoolVar(&items, "items", false, "with --warehouse-range or --resume on an existing data set: reload ITEM too")
	return cmd
}

// exportTPCCCSV writes the data set as CSV files instead of loading it; the
// --target only selects the NULL convention (no connection is made).
func exportTPCCCSV(app *App, cmd *cobra.Command, c *tpccCommon, cfg tpcc.ExportConfig) error {
	cfg.Dialect = load.CSVMySQL
	if tg, err := target.Parse(c.tf.URL); err == nil && tg.Kind == target.Postgres {
		cfg.Dialect = load.CSVPostgres
	}
	st, err := tpcc.ExportCSV(cmd.Context(), cfg)
	if err != nil {
		if cmd.Context().Err() != nil {
			return ErrInterrupted
		}
		return err
	}
	fmt.Fprintf(app.Out, "wrote %d CSV file(s) to %s: %s rows, %.1f MB in %s (%s rows/s)\n", st.Files, cfg.Dir,
		fi(st.Rows), float64(st.Bytes)/1e6, st.Total.Round(100*time.Millisecond),
		f1(float64(st.Rows)/max(st.Total.Seconds(), 1e-9)))
	return nil
}
