package ycsb

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/registry"
	"benchpress/internal/results"
	"benchpress/internal/target"
	"benchpress/internal/usage"
)

// RunOptions are the options of `ycsb run` (and of YCSB sweep cases). The
// client settings follow the YCSB client: threadcount, target and
// maxexecutiontime properties apply unless --threads, --rate or --time
// are given; --time without an explicit operationcount runs by time.
type RunOptions struct {
	registry.RunBase // Runner holds the flags until Resolve, then the resolved limits
	props            propFlags
	operations       int64

	// Resolved by Resolve.
	name     string
	resolved Props
}

// NewRunOptions returns the defaults.
func NewRunOptions() registry.RunOptions {
	o := &RunOptions{}
	o.Flags(pflag.NewFlagSet("defaults", pflag.ContinueOnError))
	return o
}

// Flags implements registry.RunOptions.
func (o *RunOptions) Flags(fs *pflag.FlagSet) {
	o.RegisterCommon(fs, registry.DefaultTarget)
	o.props.register(fs)
	r := &o.Runner
	r.ReportInterval = 10 * time.Second
	fs.IntVar(&r.Terminals, "threads", 1, "client threads (connections); the threadcount property when not given")
	fs.Int64Var(&o.operations, "operations", 0, "operationcount: stop after this many operations (default: the workload's, 1000,\nunless --time is given; whichever of --operations and --time ends first stops the run)")
	fs.Var(registry.Seconds{D: &r.Duration}, "time", "stop after this many seconds (maxexecutiontime; or a duration such as 5m)")
	fs.Var(registry.Seconds{D: &r.Duration}, "duration", "alias of --time (seconds or a duration), as sweep plans set it")
	fs.Var(registry.Seconds{D: &r.Warmup}, "warmup", "warm-up excluded from the statistics (YCSB has none; default 0)")
	fs.Float64Var(&r.Rate, "rate", 0, "target total ops/s, open loop, latency from the intended start (the target property; 0 = unthrottled)")
	fs.Var(registry.Seconds{D: &r.ReportInterval}, "report-interval", "seconds between live lines (0 = off)")
	fs.IntVar(&r.MaxRetries, "max-retries", 0, "re-run an operation after a deadlock/serialization/lock-timeout error (YCSB does not retry)")
}

// Resolve implements registry.RunOptions: it resolves the properties and
// the run limits, returning every problem.
func (o *RunOptions) Resolve(name string, fs *pflag.FlagSet) []error {
	var errs []error
	p, explicit, err := o.props.resolve(name)
	if err != nil {
		errs = append(errs, err)
	}
	cfg := o.Runner
	num := func(k string) (float64, bool) {
		v, ok := p[k]
		if !ok {
			return 0, false
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			errs = append(errs, usage.Errorf("property %s=%q: not a number", k, v))
			return 0, false
		}
		return x, true
	}
	if v, ok := num("threadcount"); ok && !fs.Changed("threads") {
		cfg.Terminals = int(v)
	}
	if v, ok := num("target"); ok && !fs.Changed("rate") {
		cfg.Rate = v
	}
	if v, ok := num("maxexecutiontime"); ok && !fs.Changed("time") && !fs.Changed("duration") {
		cfg.Duration = time.Duration(v * float64(time.Second))
	}
	switch {
	case fs.Changed("operations"):
		p["operationcount"] = strconv.FormatInt(o.operations, 10)
	case cfg.Duration > 0 && !explicit["operationcount"]:
		// --time without an explicit operationcount runs by time: the
		// workload file's operationcount=1000 would end it in a blink.
		p["operationcount"] = "0"
	}
	if v, ok := num("operationcount"); ok {
		cfg.MaxOps = int64(v)
	}
	if o.operations < 0 {
		errs = append(errs, usage.Errorf("--operations must not be negative (got %d)", o.operations))
	}
	errs = append(errs, registry.RunnerProblems(cfg, fs, false)...)
	if cfg.MaxOps == 0 && cfg.Duration == 0 {
		errs = append(errs, usage.Errorf("set --operations or --time (both are 0: the run would never end)"))
	}
	if err == nil {
		if _, cerr := ParseConfig(p); cerr != nil {
			errs = append(errs, &usage.Error{Err: cerr})
		}
	}
	o.name, o.resolved, o.Runner = name, p, cfg
	return errs
}

// Clone implements registry.RunOptions.
func (o *RunOptions) Clone() registry.RunOptions {
	c := *o
	c.resolved = o.resolved.Clone()
	return &c
}

// Build implements registry.RunOptions: it checks the table and returns the run.
func (o *RunOptions) Build(ctx context.Context, _ *registry.Env, conn *target.Connector, _ bool) (*registry.Spec, error) {
	p, rc := o.resolved, o.Runner
	w, err := New(p)
	if err != nil {
		return nil, &usage.Error{Err: err}
	}
	admin, err := conn.Connect(ctx)
	if err != nil {
		return nil, err
	}
	err = CheckLoaded(ctx, admin, p)
	admin.Close()
	if err != nil {
		return nil, err
	}
	props := map[string]string{}
	for k, v := range p {
		props[k] = results.MaskProperty(k, v)
	}
	return &registry.Spec{
		Name: "ycsb/" + strings.TrimPrefix(strings.ToLower(o.name), "workload"), Workload: w, Unit: "operation",
		Runner: rc,
		Config: map[string]any{
			"workload": o.name, "threads": rc.Terminals, "operationcount": rc.MaxOps, "time": rc.Duration.String(),
			"warmup": rc.Warmup.String(), "rate": rc.Rate, "max_retries": rc.MaxRetries, "properties": props,
			"isolation": registry.IsoOrDefault(o.TF.Isolation), "statement_mode": o.TF.StatementMode,
		},
		Live:  liveLine,
		Print: printReport,
	}, nil
}
