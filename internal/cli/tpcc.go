package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/target"
	"benchpress/internal/workload"
	"benchpress/internal/workload/tpcc"
)

func newTPCCCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tpcc",
		Short: "TPC-C (rev. 5.11): prepare, run, check, cleanup",
		Long: `TPC-C as specified in TPC-C 5.11: nine tables, five transactions dealt from a
true deck of cards (45/43/4/4/4), terminals bound to a home warehouse and district,
tpmC counted from New-Orders completed inside the measurement window.`,
		Args: noArgsUsage,
	}
	cmd.AddCommand(newTPCCPrepareCmd(app), newTPCCRunCmd(app), newTPCCCheckCmd(app), newTPCCCleanupCmd(app))
	return cmd
}

// tpccCommon are flags every tpcc subcommand has.
type tpccCommon struct {
	tf    targetFlags
	names string
}

func (c *tpccCommon) register(fs *pflag.FlagSet) {
	c.tf.register(fs, defaultTarget)
	fs.StringVar(&c.names, "names", "standard", "table-name scheme: standard (warehouse, orders...), bmsql (BenchmarkSQL's bmsql_*), tpcc-mysql (new_orders)")
}

func (c *tpccCommon) resolveNames() (tpcc.Names, error) {
	n, err := tpcc.NamesFor(c.names)
	if err != nil {
		return n, &UsageError{Err: err}
	}
	return n, nil
}

// tpccRunFlags are the flags of tpcc run (also used by quickstart and sweeps).
type tpccRunFlags struct {
	tpccCommon
	warehouses     int
	terminals      int
	mix            string
	wait           bool
	warmup         time.Duration
	duration       time.Duration
	reportInterval time.Duration
	maxRetries     int
	seed           uint64
	jsonPath       string
	check          bool
}

func (f *tpccRunFlags) register(fs *pflag.FlagSet) {
	f.tpccCommon.register(fs)
	fs.IntVarP(&f.warehouses, "warehouses", "w", 0, "warehouses to use (default: all loaded; must not exceed the loaded count)")
	fs.IntVarP(&f.terminals, "terminals", "t", 10, "concurrent terminals (connections); any number >= 1, spread evenly over warehouses")
	fs.StringVar(&f.mix, "mix", "45,43,4,4,4", "deck weights new_order,payment,order_status,delivery,stock_level (or name=weight,...)")
	fs.BoolVar(&f.wait, "wait", false, "apply keying and think times (clause 5.2.5); off by default like most tools")
	fs.DurationVar(&f.warmup, "warmup", 10*time.Second, "warm-up excluded from the results")
	fs.DurationVar(&f.duration, "duration", time.Minute, "measurement window")
	fs.DurationVar(&f.reportInterval, "report-interval", 10*time.Second, "live line period (0 = off)")
	fs.IntVar(&f.maxRetries, "max-retries", 3, "re-run a transaction after a deadlock/serialization/lock-timeout error at most this many times")
	fs.Uint64Var(&f.seed, "seed", 0, "random seed for the run (0 = from the clock)")
	fs.StringVar(&f.jsonPath, "json", "", "write the full result (summary, series, histograms) to this JSON file")
	fs.BoolVar(&f.check, "check", false, "run the consistency check after the run")
}

// validate returns every flag problem at once.
func (f *tpccRunFlags) validate() (tpcc.Names, [tpcc.NumOps]int, error) {
	var errs []error
	var mix [tpcc.NumOps]int
	errs = append(errs, runnerProblems(runner.Config{Terminals: f.terminals, Warmup: f.warmup, Duration: f.duration,
		ReportInterval: f.reportInterval, MaxRetries: f.maxRetries}, tpccFlagNames, true)...)
	if f.warehouses < 0 {
		errs = append(errs, usagef("--warehouses must be >= 1 (got %d)", f.warehouses))
	}
	m, err := tpcc.ParseMix(f.mix)
	if err != nil {
		errs = append(errs, usagef("--mix: %v", err))
	} else {
		mix = m
	}
	names, err := f.resolveNames()
	if err != nil {
		errs = append(errs, err)
	}
	return names, mix, joinUsage(errs)
}

func newTPCCRunCmd(app *App) *cobra.Command {
	var f tpccRunFlags
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the TPC-C mix and report tpmC, tpmTOTAL and latency per transaction",
		Example: `  benchpress tpcc run --target mysql://bench@127.0.0.1:3306/tpcc --terminals 8 --warmup 5s --duration 60s --json r.json
  benchpress tpcc run --target mysql://bench@lb1:3306,lb2:3306/tpcc --terminals 512 --duration 5m
  benchpress tpcc run --target postgres://bench@db:5432/tpcc --terminals 40 --wait --duration 30m`,
		Args: noArgsUsage,
		RunE: func(cmd *cobra.Command, _ []string) error {
			run, err := runTPCC(cmd.Context(), app, &f, false)
			return finishRun(app, run, err, f.jsonPath, "transaction", printSummary)
		},
	}
	f.register(cmd.Flags())
	return cmd
}

// runTPCC validates, connects, runs and (optionally) checks. It returns the
// result also when interrupted.
func runTPCC(ctx context.Context, app *App, f *tpccRunFlags, quiet bool) (*results.Run, error) {
	names, mix, err := f.validate()
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
	meta, err := tpcc.ReadMeta(ctx, admin, names)
	admin.Close()
	if err != nil {
		return nil, err
	}
	w := f.warehouses
	if w == 0 {
		w = meta.Warehouses
	}
	if err := meta.Validate(w, names.Scheme); err != nil {
		return nil, err
	}
	seed := f.seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	cfg := tpcc.Config{Warehouses: w, Mix: mix, Wait: f.wait, Names: names, Seed: seed}
	wl, err := tpcc.New(cfg, meta)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	if !quiet {
		for _, warn := range cfg.MixWarnings() {
			fmt.Fprintln(app.Err, "warning: "+warn)
		}
	}
	spec := &runSpec{
		Name: "tpcc", Workload: wl, Connector: conn, Quiet: quiet,
		Runner: runner.Config{
			Terminals: f.terminals, Warmup: f.warmup, Duration: f.duration, Wait: f.wait,
			MaxRetries: f.maxRetries, ReportInterval: f.reportInterval,
		},
		Config: map[string]any{
			"warehouses": w, "terminals": f.terminals, "mix": mixString(mix), "wait": f.wait,
			"warmup": f.warmup.String(), "duration": f.duration.String(), "names": names.Scheme,
			"isolation": isoOrDefault(f.tf.Isolation), "statement_mode": f.tf.StatementMode,
			"max_retries": f.maxRetries, "seed": seed, "loaded_warehouses": meta.Warehouses,
		},
		Live: tpccLiveLine,
	}
	run, err := executeRun(ctx, app, spec)
	if run != nil && f.check && err == nil {
		checks, cerr := runCheck(ctx, conn, names, false)
		run.Checks = append(run.Checks, checks...)
		if cerr != nil {
			err = cerr
		}
	}
	return run, err
}

// runCheck runs the consistency check on one admin session.
func runCheck(ctx context.Context, conn *target.Connector, names tpcc.Names, all bool) ([]results.Check, error) {
	admin, err := conn.Connect(ctx)
	if err != nil {
		return nil, err
	}
	defer admin.Close()
	return tpcc.Check(ctx, admin, names, all)
}

func mixString(m [tpcc.NumOps]int) string {
	parts := make([]string, len(m))
	for i, v := range m {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ",")
}

func isoOrDefault(s string) string {
	if s == "" {
		return "server default"
	}
	return s
}

// tpccLiveLine: elapsed, tpmC, tpmTOTAL, p95/p99 per type, errors.
func tpccLiveLine(r runner.Report) string {
	var total, errs int64
	var b strings.Builder
	short := []string{"NO", "P", "OS", "D", "SL"}
	for i := range r.OpNames {
		c := r.Snap.Counts[i]
		n := c.OK + c.Rollback
		total += n
		errs += c.Errors()
		if n > 0 && i < len(short) {
			l := results.LatencyOf(r.Snap.OKHist[i])
			fmt.Fprintf(&b, "  %s %.0f/%.0f", short[i], l.P95, l.P99)
		}
	}
	no := r.Snap.Counts[tpcc.OpNewOrder]
	tpmC := float64(no.OK+no.Rollback) / r.Seconds * 60
	tag := ""
	if r.Phase == "warmup" {
		tag = " warm-up"
	}
	return fmt.Sprintf("[%6s]%s tpmC %s  tpmTOTAL %s  p95/p99 ms:%s  errors %d",
		fmtElapsed(r.Elapsed), tag, f1(tpmC), f1(float64(total)/r.Seconds*60), b.String(), errs)
}

func newTPCCCheckCmd(app *App) *cobra.Command {
	var c tpccCommon
	var all bool
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Verify the TPC-C consistency conditions (clause 3.3.2)",
		Long: `Runs the consistency conditions of clause 3.3.2 as set-based queries.
By default the cheap ones (1, 2, 3, 4, 5, 7, 8, 9); --all adds 6, 10 and 12.
Condition 11 holds only before the first Delivery and is checked only then.
Exit code 8 if any condition is violated.`,
		Example: `  benchpress tpcc check --target mysql://bench@127.0.0.1:3306/tpcc
  benchpress tpcc check --target postgres://bench@db:5432/tpcc --all`,
		Args: noArgsUsage,
		RunE: func(cmd *cobra.Command, _ []string) error {
			names, err := c.resolveNames()
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			return withAdmin(ctx, app, &c.tf, func(_ *target.Connector, admin target.Conn) error {
				if _, err := tpcc.ReadMeta(ctx, admin, names); err != nil {
					return err
				}
				start := time.Now()
				checks, err := tpcc.Check(ctx, admin, names, all)
				printChecks(app.Out, checks)
				if err == nil {
					fmt.Fprintf(app.Out, "consistency check passed (%d conditions, %.1fs)\n", len(checks), time.Since(start).Seconds())
				}
				return err
			})
		},
	}
	c.register(cmd.Flags())
	cmd.Flags().BoolVar(&all, "all", false, "also run the expensive conditions 6, 10 and 12")
	return cmd
}

func newTPCCCleanupCmd(app *App) *cobra.Command {
	var c tpccCommon
	cmd := &cobra.Command{
		Use:     "cleanup",
		Short:   "Drop the TPC-C tables",
		Example: `  benchpress tpcc cleanup --target mysql://bench@127.0.0.1:3306/tpcc`,
		Args:    noArgsUsage,
		RunE: func(cmd *cobra.Command, _ []string) error {
			names, err := c.resolveNames()
			if err != nil {
				return err
			}
			err = withAdmin(cmd.Context(), app, &c.tf, func(_ *target.Connector, admin target.Conn) error {
				return tpcc.Cleanup(cmd.Context(), admin, names)
			})
			if err != nil {
				return err
			}
			fmt.Fprintln(app.Out, "TPC-C tables dropped")
			return nil
		},
	}
	c.register(cmd.Flags())
	return cmd
}

// joinUsage joins usage errors into one UsageError listing every problem.
func joinUsage(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	if len(errs) == 1 {
		return errs[0]
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return usagef("%s", strings.Join(msgs, "; "))
}

var _ = workload.ErrNotPrepared
