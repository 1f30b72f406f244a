package tpcc

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/console"
	"benchpress/internal/registry"
	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/target"
	"benchpress/internal/usage"
)

// RunOptions are the options of `tpcc run` (also quickstart's and every
// sweep case's): declared once in Flags, checked by Resolve.
type RunOptions struct {
	registry.RunBase
	names      string
	warehouses int
	mix        string
	seed       uint64
	check      bool
	txnShape   string
	shard      shardFlags

	// Resolved by Resolve.
	scheme Names
	deck   [NumOps]int
	shape  TxnShape
	shards Sharding
}

// NewRunOptions returns the defaults (as registered on a flag set).
func NewRunOptions() registry.RunOptions {
	o := &RunOptions{}
	o.Flags(pflag.NewFlagSet("defaults", pflag.ContinueOnError))
	return o
}

// registerNames declares --names (every tpcc command has it).
func registerNames(fs *pflag.FlagSet, names *string) {
	fs.StringVar(names, "names", "standard", "table-name scheme: standard (warehouse, orders...), bmsql (BenchmarkSQL's bmsql_*), tpcc-mysql (new_orders)")
}

// resolveNames checks --names.
func resolveNames(s string) (Names, error) {
	n, err := NamesFor(s)
	if err != nil {
		return n, &usage.Error{Err: err}
	}
	return n, nil
}

// Flags implements registry.RunOptions.
func (o *RunOptions) Flags(fs *pflag.FlagSet) {
	o.RegisterCommon(fs, registry.DefaultTarget)
	registerNames(fs, &o.names)
	r := &o.Runner
	fs.IntVarP(&o.warehouses, "warehouses", "w", 0, "warehouses to use (default: all loaded; must not exceed the loaded count)")
	fs.IntVarP(&r.Terminals, "terminals", "t", 10, "concurrent terminals (connections); any number >= 1, spread evenly over warehouses")
	fs.StringVar(&o.mix, "mix", "45,43,4,4,4", "deck weights new_order,payment,order_status,delivery,stock_level (or name=weight,...)")
	fs.BoolVar(&r.Wait, "wait", false, "apply keying and think times (clause 5.2.5); off by default like most tools")
	// Durations (30s, 5m) or bare seconds, as the sysbench and YCSB
	// commands take them: a user switching workloads keeps the spelling.
	r.Warmup, r.Duration, r.ReportInterval = 10*time.Second, time.Minute, 10*time.Second
	fs.Var(registry.Seconds{D: &r.Warmup}, "warmup", "warm-up excluded from the results (a duration such as 30s, or seconds)")
	fs.Var(registry.Seconds{D: &r.Duration}, "duration", "measurement window (a duration such as 5m, or seconds)")
	fs.Var(registry.Seconds{D: &r.ReportInterval}, "report-interval", "seconds (or a duration) between live lines (0 = off)")
	fs.IntVar(&r.MaxRetries, "max-retries", 3, "re-run a transaction after a deadlock/serialization/lock-timeout error at most this many times")
	fs.Uint64Var(&o.seed, "seed", 0, "random seed for the run (0 = from the clock)")
	fs.BoolVar(&o.check, "check", false, "run the consistency check after the run")
	o.shard.register(fs)
	fs.StringVar(&o.txnShape, "txn-shape", "auto", "New-Order/Delivery statement shape: batched (one statement for all lines/districts), per-line (one per line/district, for sharding proxies that cannot route row-value IN or multi-row CASE), or auto (per-line through a sharding proxy the server version names, else batched)")
}

// Resolve implements registry.RunOptions: every flag problem at once.
func (o *RunOptions) Resolve(_ string, fs *pflag.FlagSet) []error {
	errs := registry.RunnerProblems(o.Runner, fs, true)
	if o.warehouses < 0 {
		errs = append(errs, usage.Errorf("--warehouses must be >= 1 (got %d)", o.warehouses))
	}
	m, err := ParseMix(o.mix)
	if err != nil {
		errs = append(errs, usage.Errorf("--mix: %v", err))
	} else {
		o.deck = m
	}
	names, err := resolveNames(o.names)
	if err != nil {
		errs = append(errs, err)
	}
	o.scheme = names
	if o.shape, err = ParseTxnShape(o.txnShape); err != nil {
		errs = append(errs, &usage.Error{Err: err})
	}
	if o.shards, err = o.shard.resolve(); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// Clone implements registry.RunOptions.
func (o *RunOptions) Clone() registry.RunOptions { c := *o; return &c }

// Build implements registry.RunOptions: it reads the data set's metadata,
// checks the warehouse count and scheme, and returns the run.
func (o *RunOptions) Build(ctx context.Context, env *registry.Env, conn *target.Connector, quiet bool) (*registry.Spec, error) {
	names := o.scheme
	admin, err := conn.Connect(ctx)
	if err != nil {
		return nil, err
	}
	meta, err := ReadMeta(ctx, admin, names)
	version := admin.ServerVersion()
	shape := o.shape.Resolve(version)
	admin.Close()
	if err != nil {
		return nil, err
	}
	w := o.warehouses
	if w == 0 {
		w = meta.Warehouses
	}
	if err := meta.Validate(w, names.Scheme); err != nil {
		return nil, err
	}
	seed := o.Part.Seed(o.seed)
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	cfg := Config{Warehouses: w, Mix: o.deck, Wait: o.Runner.Wait, Names: names, Seed: seed, Shape: shape, Sharding: o.shards}
	wl, err := New(cfg, meta)
	if err != nil {
		return nil, &usage.Error{Err: err}
	}
	if !quiet {
		if shape != o.shape && shape == ShapePerLine {
			fmt.Fprintf(env.Err, "note: %s: New-Order and Delivery run one statement per line/district (--txn-shape per-line; --txn-shape batched to override)\n",
				target.ProxyName(version))
		}
		if note := crowdNote(o.Runner.Terminals, w); note != "" {
			fmt.Fprintln(env.Err, "note: "+note)
		}
		for _, warn := range cfg.MixWarnings() {
			fmt.Fprintln(env.Err, "warning: "+warn)
		}
	}
	spec := &registry.Spec{
		Name: "tpcc", Workload: wl, Unit: "transaction", Print: printSummary, Live: liveLine,
		Runner: o.Runner,
		Config: map[string]any{
			"warehouses": w, "terminals": o.Runner.Terminals, "mix": mixString(o.deck), "wait": o.Runner.Wait,
			"warmup": o.Runner.Warmup.String(), "duration": o.Runner.Duration.String(), "names": names.Scheme,
			"isolation": registry.IsoOrDefault(o.TF.Isolation), "statement_mode": o.TF.StatementMode,
			"max_retries": o.Runner.MaxRetries, "seed": seed, "loaded_warehouses": meta.Warehouses,
			"txn_shape": string(shape),
		},
	}
	shardConfig(o.shards, spec.Config)
	if o.check {
		spec.After = func(ctx context.Context, conn *target.Connector, run *results.Run) error {
			checks, err := runCheck(ctx, conn, names, false)
			run.Checks = append(run.Checks, checks...)
			return err
		}
	}
	return spec, nil
}

// crowdNote says when terminals crowd their warehouses beyond the spec's
// TerminalsPerWarehouse (clause 4.2.2; Bind): every Payment updates its
// warehouse's row and every New-Order its district's, so the extra
// terminals contend for those row locks.
func crowdNote(terminals, warehouses int) string {
	if warehouses <= 0 || terminals <= TerminalsPerWarehouse*warehouses {
		return ""
	}
	return fmt.Sprintf("%d terminals on %d warehouse(s) is %.0f per warehouse, the spec has %d: each Payment updates its warehouse's row and each New-Order its district's, so terminals beyond that contend for those row locks (prepare more warehouses to scale out)",
		terminals, warehouses, float64(terminals)/float64(warehouses), TerminalsPerWarehouse)
}

// runCheck runs the consistency check on one admin session.
func runCheck(ctx context.Context, conn *target.Connector, names Names, all bool) ([]results.Check, error) {
	admin, err := conn.Connect(ctx)
	if err != nil {
		return nil, err
	}
	defer admin.Close()
	return Check(ctx, admin, names, all)
}

func mixString(m [NumOps]int) string {
	parts := make([]string, len(m))
	for i, v := range m {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ",")
}

// liveLine: elapsed, tpmC, tpmTOTAL, p95/p99 per type, errors.
func liveLine(r runner.Report) string {
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
	no := r.Snap.Counts[OpNewOrder]
	tpmC := float64(no.OK+no.Rollback) / r.Seconds * 60
	tag := ""
	if r.Phase == "warmup" {
		tag = " warm-up"
	}
	return fmt.Sprintf("[%6s]%s tpmC %s  tpmTOTAL %s  p95/p99 ms:%s  errors %d",
		console.Elapsed(r.Elapsed), tag, console.F1(tpmC), console.F1(float64(total)/r.Seconds*60), b.String(), errs)
}
