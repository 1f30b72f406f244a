package cli

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"benchpress/internal/load"
	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/target"
	"benchpress/internal/workload/sysbench"
)

func init() {
	extraCommands = append(extraCommands, newSysbenchCmd)
	stepFamilies["sysbench"] = stepFamily{bind: func(app *App, fs *pflag.FlagSet, test string) func(context.Context) (*results.Run, error) {
		var f sysbenchRunFlags
		f.register(fs)
		return func(ctx context.Context) (*results.Run, error) { return runSysbench(ctx, app, &f, test, true) }
	}}
}

// sysbenchDefaultTest is the test prepare and cleanup assume without one.
const sysbenchDefaultTest = sysbench.ReadWrite

func newSysbenchCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sysbench",
		Short: "sysbench OLTP tests (oltp_read_write, oltp_point_select, ...): prepare, run, cleanup",
		Long: `The sysbench 1.0 OLTP Lua tests (oltp_common.lua and friends) with sysbench's
option names and defaults: sbtest1..sbtestN tables, the same statements per event,
the same read/write/other query classification and the same final report.

Tests: ` + strings.Join(sysbench.Tests(), ", ") + `

Option names follow sysbench; both --table-size and --table_size are accepted,
and booleans take on/off as well as true/false.

The id distribution defaults to --rand-type=special, the default of sysbench
1.0.20 (the last release, the one Linux distributions ship and most published
figures come from): 75 % of ids fall in the middle 1 % of each table. Use
--rand-type=uniform to compare with sysbench built from master.`,
		Args: noArgsUsage,
	}
	cmd.AddCommand(newSysbenchPrepareCmd(app), newSysbenchRunCmd(app), newSysbenchCleanupCmd(app))
	return cmd
}

// onOff is a bool flag value that also accepts sysbench's on/off.
type onOff struct{ b *bool }

func (v onOff) String() string {
	if v.b != nil && *v.b {
		return "on"
	}
	return "off"
}

func (v onOff) Set(s string) error {
	switch strings.ToLower(s) {
	case "on", "true", "1", "yes", "t":
		*v.b = true
	case "off", "false", "0", "no", "f":
		*v.b = false
	default:
		return fmt.Errorf("want on or off")
	}
	return nil
}

func (onOff) Type() string     { return "on|off" }
func (onOff) IsBoolFlag() bool { return true }

// seconds is a duration flag that takes whole seconds like sysbench (--time 60)
// or a Go duration (--duration 1m30s); --time and --duration share one.
type seconds struct{ d *time.Duration }

func (v seconds) String() string {
	if v.d == nil {
		return "0"
	}
	if *v.d%time.Second == 0 {
		return strconv.FormatInt(int64(*v.d/time.Second), 10)
	}
	return v.d.String()
}

func (v seconds) Set(s string) error {
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		*v.d = time.Duration(n * float64(time.Second))
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("want seconds (60) or a duration (1m30s)")
	}
	*v.d = d
	return nil
}

func (seconds) Type() string { return "seconds" }

// underscoreToDash lets sysbench's spellings (--table_size) work.
func underscoreToDash(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	return pflag.NormalizedName(strings.ReplaceAll(name, "_", "-"))
}

// sysbenchCommon holds the target and the oltp_common.lua options every
// subcommand accepts (sysbench accepts them everywhere too).
type sysbenchCommon struct {
	tf   targetFlags
	opts sysbench.Options
}

func (c *sysbenchCommon) register(fs *pflag.FlagSet) {
	fs.SetNormalizeFunc(underscoreToDash)
	c.tf.register(fs, defaultTarget)
	c.opts = sysbench.DefaultOptions()
	o := &c.opts
	fs.IntVar(&o.Tables, "tables", o.Tables, "number of tables sbtest1..sbtestN")
	fs.IntVar(&o.TableSize, "table-size", o.TableSize, "rows per table")
	fs.IntVar(&o.RangeSize, "range-size", o.RangeSize, "width of the BETWEEN ranges")
	fs.IntVar(&o.PointSelects, "point-selects", o.PointSelects, "point SELECTs per event")
	fs.IntVar(&o.SimpleRanges, "simple-ranges", o.SimpleRanges, "simple range SELECTs per event")
	fs.IntVar(&o.SumRanges, "sum-ranges", o.SumRanges, "SUM() range SELECTs per event")
	fs.IntVar(&o.OrderRanges, "order-ranges", o.OrderRanges, "ORDER BY range SELECTs per event")
	fs.IntVar(&o.DistinctRanges, "distinct-ranges", o.DistinctRanges, "DISTINCT range SELECTs per event")
	fs.IntVar(&o.IndexUpdates, "index-updates", o.IndexUpdates, "UPDATE k=k+1 per event")
	fs.IntVar(&o.NonIndexUpdates, "non-index-updates", o.NonIndexUpdates, "UPDATE c=? per event")
	fs.IntVar(&o.DeleteInserts, "delete-inserts", o.DeleteInserts, "DELETE+INSERT pairs per event")
	fs.Var(onOff{&o.RangeSelects}, "range-selects", "run the four range SELECT kinds")
	fs.Var(onOff{&o.SkipTrx}, "skip-trx", "no BEGIN/COMMIT: every statement in autocommit")
	fs.Var(onOff{&o.AutoInc}, "auto-inc", "AUTO_INCREMENT / SERIAL id (off: the client supplies ids)")
	fs.Var(onOff{&o.Secondary}, "secondary", "id as a secondary index instead of the primary key")
	fs.Var(onOff{&o.CreateSecondary}, "create-secondary", "create the secondary index k_N on k")
	fs.StringVar(&o.MySQLStorageEngine, "mysql-storage-engine", o.MySQLStorageEngine, "storage engine (MySQL only)")
	fs.StringVar(&o.CreateTableOptions, "create-table-options", o.CreateTableOptions, "text appended to CREATE TABLE")
	fs.StringVar(&o.RandType, "rand-type", o.RandType, "id distribution: special (sysbench 1.0.20's default: 75 % of ids in the middle 1 %), uniform (sysbench master's default), gaussian, pareto, zipfian")
	fs.IntVar(&o.RandSpecIter, "rand-spec-iter", o.RandSpecIter, "iterations of the gaussian/special distribution")
	fs.IntVar(&o.RandSpecPct, "rand-spec-pct", o.RandSpecPct, "percent of the range that is hot (special)")
	fs.IntVar(&o.RandSpecRes, "rand-spec-res", o.RandSpecRes, "percent of ids drawn from the hot range (special)")
	fs.Float64Var(&o.RandParetoH, "rand-pareto-h", o.RandParetoH, "pareto parameter h")
	fs.Float64Var(&o.RandZipfExp, "rand-zipfian-exp", o.RandZipfExp, "zipfian exponent")
	fs.Uint64Var(&o.Seed, "rand-seed", 0, "random seed (0 = from the clock)")
}

// workloadFor validates test and the options.
func (c *sysbenchCommon) workloadFor(test string) (*sysbench.Workload, error) {
	w, err := sysbench.New(test, c.opts)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	return w, nil
}

// testArg returns the TEST argument (or the default for prepare/cleanup).
func sysbenchTestArg(args []string, required bool) (string, error) {
	if len(args) == 0 {
		if required {
			return "", usagef("missing TEST: one of %s", strings.Join(sysbench.Tests(), ", "))
		}
		return sysbenchDefaultTest, nil
	}
	if len(args) > 1 {
		return "", usagef("unexpected argument %q (want one TEST)", args[1])
	}
	for _, t := range sysbench.Tests() {
		if t == args[0] {
			return t, nil
		}
	}
	return "", usagef("unknown sysbench test %q: use one of %s", args[0], strings.Join(sysbench.Tests(), ", "))
}

func newSysbenchPrepareCmd(app *App) *cobra.Command {
	var c sysbenchCommon
	var threads int
	cmd := &cobra.Command{
		Use:   "prepare [TEST]",
		Short: "Create sbtest1..sbtestN and load --table-size rows each",
		Long: `Creates the tables like sysbench's prepare: loader thread t creates tables t+1,
t+1+threads, ...; rows go in with multi-row INSERTs, then the index k_N is built.
TEST matters only for oltp_insert with --auto-inc=off (empty tables).`,
		Example: `  benchpress sysbench prepare oltp_read_write --target mysql://bench@127.0.0.1:3306/sb --tables 4 --table-size 100000 --threads 4
  PGPASSWORD=secret benchpress sysbench prepare --target postgres://bench@db:5432/sb --tables 16 --table-size 1000000 --threads 16`,
		RunE: func(cmd *cobra.Command, args []string) error {
			test, err := sysbenchTestArg(args, false)
			var errs []error
			if err != nil {
				errs = append(errs, err)
			}
			if threads < 1 {
				errs = append(errs, usagef("--threads must be >= 1 (got %d)", threads))
			}
			var w *sysbench.Workload
			if err == nil {
				if w, err = c.workloadFor(test); err != nil {
					errs = append(errs, err)
				}
			}
			if err := joinUsage(errs); err != nil {
				return err
			}
			conn, err := c.tf.connect(app)
			if err != nil {
				return err
			}
			defer conn.Close()
			ctx := cmd.Context()
			o := w.Options()
			fmt.Fprintf(app.Err, "preparing sysbench: %d table(s) x %s rows on %s with %d thread(s)\n",
				o.Tables, fi(int64(o.TableSize)), conn.Target().Redacted(), threads)
			prog := newRowProgress(app, int64(o.Tables)*int64(o.TableSize))
			start := time.Now()
			err = w.Prepare(ctx, conn, threads, func(_ string, rows int64) { prog.add(rows) })
			if err != nil {
				if ctx.Err() != nil {
					return ErrInterrupted
				}
				return err
			}
			prog.done()
			fmt.Fprintf(app.Out, "prepared %d table(s) of %s rows in %s\n", o.Tables, fi(int64(o.TableSize)),
				time.Since(start).Round(100*time.Millisecond))
			return nil
		},
	}
	c.register(cmd.Flags())
	cmd.Flags().IntVar(&threads, "threads", 1, "parallel loader sessions (at most one per table)")
	return cmd
}

func newSysbenchCleanupCmd(app *App) *cobra.Command {
	var c sysbenchCommon
	cmd := &cobra.Command{
		Use:     "cleanup [TEST]",
		Short:   "Drop sbtest1..sbtestN",
		Example: `  benchpress sysbench cleanup --target mysql://bench@127.0.0.1:3306/sb --tables 4`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := sysbenchTestArg(args, false); err != nil {
				return err
			}
			if c.opts.Tables < 1 {
				return usagef("--tables must be >= 1 (got %d)", c.opts.Tables)
			}
			err := withAdmin(cmd.Context(), app, &c.tf, func(_ *target.Connector, admin target.Conn) error {
				return sysbench.Cleanup(cmd.Context(), admin, c.opts)
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(app.Out, "dropped sbtest1..sbtest%d\n", c.opts.Tables)
			return nil
		},
	}
	c.register(cmd.Flags())
	return cmd
}

// sysbenchRunFlags are the flags of sysbench run (also bound by sweep steps).
type sysbenchRunFlags struct {
	sysbenchCommon
	threads        int
	duration       time.Duration
	warmup         time.Duration
	reportInterval time.Duration
	rate           float64
	maxRetries     int
	percentile     string
	jsonPath       string
}

func (f *sysbenchRunFlags) register(fs *pflag.FlagSet) {
	f.sysbenchCommon.register(fs)
	f.duration = 10 * time.Second
	fs.IntVar(&f.threads, "threads", 1, "concurrent threads (connections)")
	fs.Var(seconds{&f.duration}, "time", "measurement time in seconds (or a duration such as 1m30s)")
	fs.Var(seconds{&f.duration}, "duration", "alias of --time (Go duration), as sweep plans set it")
	fs.Var(seconds{&f.warmup}, "warmup-time", "warm-up in seconds, excluded from the statistics")
	fs.Var(seconds{&f.warmup}, "warmup", "alias of --warmup-time (Go duration)")
	fs.Var(seconds{&f.reportInterval}, "report-interval", "seconds between intermediate lines (0 = off)")
	fs.Float64Var(&f.rate, "rate", 0, "total events per second, open loop (0 = as fast as possible)")
	fs.IntVar(&f.maxRetries, "max-retries", 1000, "restart an event after a deadlock / lock wait timeout / serialization failure at most this many times\n(sysbench's --mysql-ignore-errors=1213,1020,1205 restarts without limit); restarts count as ignored errors")
	fs.StringVar(&f.percentile, "percentile", "95", "latency percentile(s) to report, comma-separated (e.g. 95,99,99.9)")
	fs.StringVar(&f.jsonPath, "json", "", "write the full result (summary, series, histograms) to this JSON file")
}

// percentiles parses --percentile.
func parsePercentiles(s string) ([]float64, error) {
	var out []float64
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || v <= 0 || v >= 100 {
			return nil, fmt.Errorf("--percentile %q: want numbers in (0, 100), e.g. 95 or 95,99", s)
		}
		out = append(out, v)
	}
	return out, nil
}

// validate returns every flag problem at once.
func (f *sysbenchRunFlags) validate(test string) (*sysbench.Workload, []float64, error) {
	errs := runnerProblems(runner.Config{Terminals: f.threads, Warmup: f.warmup, Duration: f.duration,
		ReportInterval: f.reportInterval, Rate: f.rate, MaxRetries: f.maxRetries}, sysbenchFlagNames, true)
	pcts, err := parsePercentiles(f.percentile)
	if err != nil {
		errs = append(errs, &UsageError{Err: err})
	}
	w, err := f.workloadFor(test)
	if err != nil {
		errs = append(errs, err)
	}
	return w, pcts, joinUsage(errs)
}

func newSysbenchRunCmd(app *App) *cobra.Command {
	var f sysbenchRunFlags
	cmd := &cobra.Command{
		Use:   "run TEST",
		Short: "Run a sysbench OLTP test and print sysbench's report",
		Long: `Runs TEST (` + strings.Join(sysbench.Tests(), ", ") + `) for --time seconds
after --warmup-time, with --threads connections, and prints sysbench's final report
(SQL statistics, General statistics, Latency). The tables must have been prepared
with the same --tables and --table-size (exit code 6 if missing, 7 if the size differs).`,
		Example: `  benchpress sysbench run oltp_point_select --target mysql://bench@127.0.0.1:3306/sb --tables 4 --table-size 100000 --threads 8 --time 30
  benchpress sysbench run oltp_read_write --target postgres://bench@db:5432/sb --threads 64 --time 300 --warmup-time 30 --report-interval 10 --json rw.json
  benchpress sysbench run oltp_read_only --rand-type uniform --percentile 95,99,99.9 --time 60`,
		RunE: func(cmd *cobra.Command, args []string) error {
			test, err := sysbenchTestArg(args, true)
			if err != nil {
				return err
			}
			run, err := runSysbench(cmd.Context(), app, &f, test, false)
			pcts, _ := parsePercentiles(f.percentile)
			return finishRun(app, run, err, f.jsonPath, "event", func(w io.Writer, r *results.Run) { printSysbench(w, r, pcts) })
		},
	}
	f.register(cmd.Flags())
	return cmd
}

// runSysbench validates, checks the tables and runs test.
func runSysbench(ctx context.Context, app *App, f *sysbenchRunFlags, test string, quiet bool) (*results.Run, error) {
	if _, err := sysbenchTestArg([]string{test}, true); err != nil {
		return nil, err
	}
	w, _, err := f.validate(test)
	if err != nil {
		return nil, err
	}
	conn, err := f.tf.connect(app)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	admin, err := conn.Connect(ctx)
	if err != nil {
		return nil, err
	}
	err = w.CheckPrepared(ctx, admin)
	admin.Close()
	if err != nil {
		return nil, err
	}
	o := w.Options()
	threads := f.threads
	spec := &runSpec{
		Name: "sysbench/" + test, Workload: w, Connector: conn, Quiet: quiet,
		Runner: runner.Config{
			Terminals: threads, Warmup: f.warmup, Duration: f.duration, Rate: f.rate,
			MaxRetries: f.maxRetries, ReportInterval: f.reportInterval,
		},
		Config: map[string]any{
			"test": test, "threads": threads, "time": f.duration.String(), "warmup": f.warmup.String(),
			"rate": f.rate, "max_retries": f.maxRetries, "tables": o.Tables, "table_size": o.TableSize,
			"range_size": o.RangeSize, "point_selects": o.PointSelects, "simple_ranges": o.SimpleRanges,
			"sum_ranges": o.SumRanges, "order_ranges": o.OrderRanges, "distinct_ranges": o.DistinctRanges,
			"index_updates": o.IndexUpdates, "non_index_updates": o.NonIndexUpdates,
			"delete_inserts": o.DeleteInserts, "range_selects": o.RangeSelects, "skip_trx": o.SkipTrx,
			"auto_inc": o.AutoInc, "rand_type": o.RandType, "rand_seed": o.Seed,
			"queries_per_event": w.StatementsPerEvent(),
			"isolation":         isoOrDefault(f.tf.Isolation), "statement_mode": f.tf.StatementMode,
		},
		Live: sysbenchLiveLineFor(threads),
	}
	return executeRun(ctx, app, spec)
}

// sysbenchLine is sysbench's intermediate report line:
// [ 10s ] thds: 8 tps: 1234.50 qps: 24690.10 (r/w/o: .../.../...) lat (ms,95%): 8.43 err/s: 0.00 reconn/s: 0.00
// err/s counts restarted events (ignored errors) and failed ones; reconn/s
// counts lost connections, each of which makes the thread reconnect.
func sysbenchLine(r runner.Report, threads int) string {
	s := r.Snap
	secs := r.Seconds
	if secs <= 0 {
		secs = 1
	}
	var events, errs, reconn int64
	for i := range s.Counts {
		c := &s.Counts[i]
		events += c.OK + c.Rollback
		errs += c.Retries + c.Errors()
		reconn += c.Errs[target.ClassLostConnection]
	}
	var rd, wr, ot int64
	if len(s.Extra) >= 4 {
		rd, wr, ot = s.Extra[0], s.Extra[1], s.Extra[2]
		errs += s.Extra[3]
	}
	var p95 float64
	if len(s.OKHist) > 0 && s.OKHist[0] != nil && s.OKHist[0].TotalCount() > 0 {
		p95 = float64(s.OKHist[0].ValueAtQuantile(95)) / 1000
	}
	per := func(n int64) float64 { return float64(n) / secs }
	line := fmt.Sprintf("[ %s ] thds: %d tps: %.2f qps: %.2f (r/w/o: %.2f/%.2f/%.2f) lat (ms,95%%): %.2f err/s: %.2f reconn/s: %.2f",
		fmtElapsed(r.Elapsed), threads, per(events), per(rd+wr+ot), per(rd), per(wr), per(ot), p95, per(errs), per(reconn))
	if r.Phase == "warmup" {
		line += " (warm-up)"
	}
	return line
}

// sysbenchLiveLineFor binds the thread count.
func sysbenchLiveLineFor(threads int) func(runner.Report) string {
	return func(r runner.Report) string { return sysbenchLine(r, threads) }
}

// printSysbench writes sysbench 1.0's final report from run.
func printSysbench(w io.Writer, run *results.Run, pcts []float64) {
	s := run.Summary
	secs := s.DurationS
	per := func(n int64) float64 {
		if secs <= 0 {
			return 0
		}
		return float64(n) / secs
	}
	q, _ := run.Extra["queries"].(map[string]int64)
	sb, _ := run.Extra["sysbench"].(map[string]any)
	ignored, _ := sb["ignored_errors"].(int64)
	fmt.Fprintln(w)
	title := fmt.Sprintf("benchpress %s — %s", run.Workload, run.Target)
	if run.ServerVersion != "" {
		title += " (" + run.ServerVersion + ")"
	}
	fmt.Fprintln(w, title)
	status := ""
	if run.Status != "ok" {
		status = "  [" + strings.ToUpper(run.Status) + "]"
	}
	fmt.Fprintf(w, "threads: %v, rand-type: %v, measured %.1f s after %.0f s warm-up%s\n\n",
		run.Config["threads"], run.Config["rand_type"], secs, run.WarmupS, status)
	kv := func(indent int, k, v string) {
		fmt.Fprintf(w, "%s%-*s%s\n", strings.Repeat(" ", indent), 41-indent, k, v)
	}
	fmt.Fprintln(w, "SQL statistics:")
	fmt.Fprintln(w, "    queries performed:")
	kv(8, "read:", fmt.Sprint(q["read"]))
	kv(8, "write:", fmt.Sprint(q["write"]))
	kv(8, "other:", fmt.Sprint(q["other"]))
	kv(8, "total:", fmt.Sprint(q["total"]))
	kv(4, "transactions:", fmt.Sprintf("%-6d (%.2f per sec.)", s.Transactions, per(s.Transactions)))
	kv(4, "queries:", fmt.Sprintf("%-6d (%.2f per sec.)", q["total"], per(q["total"])))
	kv(4, "ignored errors:", fmt.Sprintf("%-6d (%.2f per sec.)", ignored, per(ignored)))
	kv(4, "reconnects:", fmt.Sprintf("%-6d (%.2f per sec.)", run.Reconnects, per(run.Reconnects)))
	if s.Errors > 0 {
		kv(4, "failed events:", fmt.Sprintf("%-6d (%.2f per sec.)%s", s.Errors, per(s.Errors), errClasses(run.ErrorsByClass)))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "General statistics:")
	kv(4, "total time:", fmt.Sprintf("%.4fs", secs))
	kv(4, "total number of events:", fmt.Sprint(s.Transactions))
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Latency (ms):")
	var h interface {
		Min() int64
		Max() int64
		Mean() float64
		TotalCount() int64
		ValueAtQuantile(float64) int64
	}
	if len(run.Ops) > 0 {
		if enc, ok := run.Histograms[run.Ops[0].Name]; ok {
			if d, err := results.DecodeHistogram(enc); err == nil && d.TotalCount() > 0 {
				h = d
			}
		}
	}
	ms := func(us float64) string { return fmt.Sprintf("%.2f", us/1000) }
	lat := func(k, v string) { fmt.Fprintf(w, "         %-20s%20s\n", k, v) }
	if h == nil {
		lat("min:", "0.00")
		lat("avg:", "0.00")
		lat("max:", "0.00")
		lat("sum:", "0.00")
	} else {
		lat("min:", ms(float64(h.Min())))
		lat("avg:", ms(h.Mean()))
		lat("max:", ms(float64(h.Max())))
		for _, p := range pcts {
			lat(pctName(p)+" percentile:", ms(float64(h.ValueAtQuantile(p))))
		}
		lat("sum:", ms(h.Mean()*float64(h.TotalCount())))
	}
	printDriverLine(w, run)
}

// pctName renders 95 as "95th", 99.9 as "99.9th".
func pctName(p float64) string {
	return strconv.FormatFloat(p, 'f', -1, 64) + "th"
}

// errClasses renders error counts by class, or "".
func errClasses(m map[string]int64) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return "  " + strings.Join(parts, ", ")
}

// printDriverLine reports the driver's own CPU, as printSummary does.
func printDriverLine(w io.Writer, run *results.Run) {
	d := run.Driver
	if d == nil {
		return
	}
	fmt.Fprintf(w, "\ndriver CPU %.2f s (user %.2f, sys %.2f), %.0f us per transaction", d.CPUUserS+d.CPUSysS, d.CPUUserS, d.CPUSysS, d.CPUPerTxnUS)
	if d.CPUPerStmtUS > 0 {
		fmt.Fprintf(w, ", %.1f us per statement", d.CPUPerStmtUS)
	}
	fmt.Fprintf(w, "; peak RSS %.0f MB\n", d.PeakRSSMB)
	if d.DriverBound {
		fmt.Fprintf(w, "WARNING %s\n", d.DriverBoundNote)
	}
}

// rowProgress aggregates concurrent per-batch row counts into loadProgress
// lines, at most five a second.
type rowProgress struct {
	app   *App
	est   int64
	rows  atomic.Int64
	start time.Time
	mu    sync.Mutex
	last  time.Time
	print func(load.Progress)
}

func newRowProgress(app *App, est int64) *rowProgress {
	return &rowProgress{app: app, est: est, start: time.Now(), print: loadProgress(app)}
}

func (p *rowProgress) add(n int64) {
	rows := p.rows.Add(n)
	if !p.mu.TryLock() {
		return
	}
	defer p.mu.Unlock()
	if time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last = time.Now()
	p.print(load.Progress{Rows: rows, EstRows: p.est, Elapsed: time.Since(p.start)})
}

func (p *rowProgress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.print(load.Progress{Rows: p.rows.Load(), EstRows: p.est, Elapsed: time.Since(p.start), Done: true})
}
