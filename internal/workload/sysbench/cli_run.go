package sysbench

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/registry"
	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/target"
	"benchpress/internal/usage"
)

var runFlagNames = registry.RunFlagNames{Conc: "--threads", Duration: "--time", Warmup: "--warmup-time"}

var runCommand = registry.RunCommand{
	Use:   "run TEST",
	Short: "Run a sysbench OLTP test and print sysbench's report",
	Long: `Runs TEST (` + strings.Join(Tests(), ", ") + `) for --time seconds
after --warmup-time, with --threads connections, and prints sysbench's final report
(SQL statistics, General statistics, Latency). The tables must have been prepared
with the same --tables and --table-size (exit code 6 if missing, 7 if the size differs).`,
	Example: `  benchpress sysbench run oltp_point_select --target mysql://bench@127.0.0.1:3306/sb --tables 4 --table-size 100000 --threads 8 --time 30
  benchpress sysbench run oltp_read_write --target postgres://bench@db:5432/sb --threads 64 --time 300 --warmup-time 30 --report-interval 10 --json rw.json
  benchpress sysbench run oltp_read_only --rand-type uniform --percentile 95,99,99.9 --time 60`,
	Variant: func(args []string) (string, error) { return testArg(args, true) },
	New:     NewRunOptions,
}

// RunOptions are the options of `sysbench run` (and of sysbench sweep
// cases): declared once in Flags, checked by Resolve.
type RunOptions struct {
	common
	threads        int
	duration       time.Duration
	warmup         time.Duration
	reportInterval time.Duration
	rate           float64
	maxRetries     int
	percentile     string
	jsonPath       string

	// Resolved by Resolve.
	test string
	w    *Workload
	pcts []float64
}

// NewRunOptions returns the defaults.
func NewRunOptions() registry.RunOptions {
	o := &RunOptions{}
	o.Flags(pflag.NewFlagSet("defaults", pflag.ContinueOnError))
	return o
}

// Flags implements registry.RunOptions.
func (o *RunOptions) Flags(fs *pflag.FlagSet) {
	o.common.register(fs)
	o.duration = 10 * time.Second
	fs.IntVar(&o.threads, "threads", 1, "concurrent threads (connections)")
	fs.Var(registry.Seconds{D: &o.duration}, "time", "measurement time in seconds (or a duration such as 1m30s)")
	fs.Var(registry.Seconds{D: &o.duration}, "duration", "alias of --time (Go duration), as sweep plans set it")
	fs.Var(registry.Seconds{D: &o.warmup}, "warmup-time", "warm-up in seconds, excluded from the statistics")
	fs.Var(registry.Seconds{D: &o.warmup}, "warmup", "alias of --warmup-time (Go duration)")
	fs.Var(registry.Seconds{D: &o.reportInterval}, "report-interval", "seconds between intermediate lines (0 = off)")
	fs.Float64Var(&o.rate, "rate", 0, "total events per second, open loop (0 = as fast as possible)")
	fs.IntVar(&o.maxRetries, "max-retries", 1000, "restart an event after a deadlock / lock wait timeout / serialization failure at most this many times\n(sysbench's --mysql-ignore-errors=1213,1020,1205 restarts without limit); restarts count as ignored errors")
	fs.StringVar(&o.percentile, "percentile", "95", "latency percentile(s) to report, comma-separated (e.g. 95,99,99.9)")
	fs.StringVar(&o.jsonPath, "json", "", "write the full result (summary, series, histograms) to this JSON file")
}

// parsePercentiles parses --percentile.
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

// Resolve implements registry.RunOptions: every flag problem at once.
func (o *RunOptions) Resolve(test string, _ *pflag.FlagSet) []error {
	errs := registry.RunnerProblems(runner.Config{Terminals: o.threads, Warmup: o.warmup, Duration: o.duration,
		ReportInterval: o.reportInterval, Rate: o.rate, MaxRetries: o.maxRetries}, runFlagNames, true)
	pcts, err := parsePercentiles(o.percentile)
	if err != nil {
		errs = append(errs, &usage.Error{Err: err})
	}
	o.pcts = pcts
	if err := checkTest(test); err != nil {
		return append(errs, err)
	}
	o.test = test
	w, err := o.workloadFor(test)
	if err != nil {
		errs = append(errs, err)
	}
	o.w = w
	return errs
}

// Target implements registry.RunOptions.
func (o *RunOptions) Target() *target.Flags { return &o.tf }

// SetStep implements registry.RunOptions.
func (o *RunOptions) SetStep(concurrency int, warmup, duration time.Duration) {
	o.threads, o.warmup, o.duration, o.reportInterval = concurrency, warmup, duration, 0
}

// Clone implements registry.RunOptions.
func (o *RunOptions) Clone() registry.RunOptions { c := *o; return &c }

// JSONPath implements registry.RunOptions.
func (o *RunOptions) JSONPath() string { return o.jsonPath }

// Build implements registry.RunOptions: it checks the tables and returns the run.
func (o *RunOptions) Build(ctx context.Context, _ *registry.Env, conn *target.Connector, _ bool) (*registry.Spec, error) {
	// A fresh workload per run: Resolve's is shared by clones.
	w, err := o.workloadFor(o.test)
	if err != nil {
		return nil, err
	}
	admin, err := conn.Connect(ctx)
	if err != nil {
		return nil, err
	}
	err = w.CheckPrepared(ctx, admin)
	admin.Close()
	if err != nil {
		return nil, err
	}
	opt := w.Options()
	threads := o.threads
	pcts := o.pcts
	return &registry.Spec{
		Name: "sysbench/" + o.test, Workload: w, Unit: "event",
		Runner: runner.Config{
			Terminals: threads, Warmup: o.warmup, Duration: o.duration, Rate: o.rate,
			MaxRetries: o.maxRetries, ReportInterval: o.reportInterval,
		},
		Config: map[string]any{
			"test": o.test, "threads": threads, "time": o.duration.String(), "warmup": o.warmup.String(),
			"rate": o.rate, "max_retries": o.maxRetries, "tables": opt.Tables, "table_size": opt.TableSize,
			"range_size": opt.RangeSize, "point_selects": opt.PointSelects, "simple_ranges": opt.SimpleRanges,
			"sum_ranges": opt.SumRanges, "order_ranges": opt.OrderRanges, "distinct_ranges": opt.DistinctRanges,
			"index_updates": opt.IndexUpdates, "non_index_updates": opt.NonIndexUpdates,
			"delete_inserts": opt.DeleteInserts, "range_selects": opt.RangeSelects, "skip_trx": opt.SkipTrx,
			"auto_inc": opt.AutoInc, "rand_type": opt.RandType, "rand_seed": opt.Seed,
			"queries_per_event": w.StatementsPerEvent(),
			"isolation":         registry.IsoOrDefault(o.tf.Isolation), "statement_mode": o.tf.StatementMode,
		},
		Live:  func(r runner.Report) string { return liveLine(r, threads) },
		Print: func(w io.Writer, r *results.Run) { printReport(w, r, pcts) },
	}, nil
}
