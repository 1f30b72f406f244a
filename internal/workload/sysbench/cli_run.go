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
	"benchpress/internal/target"
	"benchpress/internal/usage"
)

// RunOptions are the options of `sysbench run` (and of sysbench sweep
// cases): declared once in Flags, checked by Resolve.
type RunOptions struct {
	registry.RunBase
	opts       Options
	percentile string

	// Resolved by Resolve.
	test string
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
	fs.SetNormalizeFunc(registry.UnderscoreToDash)
	o.RegisterCommon(fs, registry.DefaultTarget)
	registerOptions(fs, &o.opts)
	r := &o.Runner
	r.Duration = 10 * time.Second
	fs.IntVar(&r.Terminals, "threads", 1, "concurrent threads (connections)")
	fs.Var(registry.Seconds{D: &r.Duration}, "time", "measurement time in seconds (or a duration such as 1m30s)")
	fs.Var(registry.Seconds{D: &r.Duration}, "duration", "alias of --time (seconds or a duration), as sweep plans set it")
	fs.Var(registry.Seconds{D: &r.Warmup}, "warmup-time", "warm-up in seconds, excluded from the statistics")
	fs.Var(registry.Seconds{D: &r.Warmup}, "warmup", "alias of --warmup-time (seconds or a duration)")
	fs.Var(registry.Seconds{D: &r.ReportInterval}, "report-interval", "seconds between intermediate lines (0 = off)")
	fs.Float64Var(&r.Rate, "rate", 0, "total events per second, open loop (0 = as fast as possible)")
	fs.IntVar(&r.MaxRetries, "max-retries", 1000, "restart an event after a deadlock / lock wait timeout / serialization failure at most this many times\n(sysbench's --mysql-ignore-errors=1213,1020,1205 restarts without limit); restarts count as ignored errors")
	fs.StringVar(&o.percentile, "percentile", "95", "latency percentile(s) to report, comma-separated (e.g. 95,99,99.9; 0: none, 100: the maximum)")
}

// parsePercentiles parses --percentile: numbers in [0, 100] as sysbench
// takes them, 0 printing no percentile line (sysbench's "off") and 100 the
// maximum.
func parsePercentiles(s string) ([]float64, error) {
	var out []float64
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || v < 0 || v > 100 {
			return nil, fmt.Errorf("--percentile %q: want numbers in [0, 100] (0: none), e.g. 95 or 95,99", s)
		}
		if v > 0 {
			out = append(out, v)
		}
	}
	return out, nil
}

// Resolve implements registry.RunOptions: every flag problem at once.
func (o *RunOptions) Resolve(test string, fs *pflag.FlagSet) []error {
	errs := registry.RunnerProblems(o.Runner, fs, true)
	pcts, err := parsePercentiles(o.percentile)
	if err != nil {
		errs = append(errs, &usage.Error{Err: err})
	}
	o.pcts = pcts
	if err := checkTest(test); err != nil {
		return append(errs, err)
	}
	o.test = test
	if _, err := workloadFor(test, o.opts); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// Clone implements registry.RunOptions.
func (o *RunOptions) Clone() registry.RunOptions { c := *o; return &c }

// Build implements registry.RunOptions: it checks the tables and returns the run.
func (o *RunOptions) Build(ctx context.Context, _ *registry.Env, conn *target.Connector, _ bool) (*registry.Spec, error) {
	w, err := workloadFor(o.test, o.opts)
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
	r := o.Runner
	threads, pcts := r.Terminals, o.pcts
	return &registry.Spec{
		Name: "sysbench/" + o.test, Workload: w, Unit: "event", Runner: r,
		Config: map[string]any{
			"test": o.test, "threads": threads, "time": r.Duration.String(), "warmup": r.Warmup.String(),
			"rate": r.Rate, "max_retries": r.MaxRetries, "tables": opt.Tables, "table_size": opt.TableSize,
			"range_size": opt.RangeSize, "point_selects": opt.PointSelects, "simple_ranges": opt.SimpleRanges,
			"sum_ranges": opt.SumRanges, "order_ranges": opt.OrderRanges, "distinct_ranges": opt.DistinctRanges,
			"index_updates": opt.IndexUpdates, "non_index_updates": opt.NonIndexUpdates,
			"delete_inserts": opt.DeleteInserts, "range_selects": opt.RangeSelects, "skip_trx": opt.SkipTrx,
			"auto_inc": opt.AutoInc, "rand_type": opt.RandType, "rand_seed": opt.Seed,
			"queries_per_event": w.StatementsPerEvent(),
			"isolation":         registry.IsoOrDefault(o.TF.Isolation), "statement_mode": o.TF.StatementMode,
		},
		Live:  liveLineFor(threads),
		Print: func(w io.Writer, r *results.Run) { printReport(w, r, pcts) },
	}, nil
}
