package registry

import (
	"context"
	"io"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/partition"
	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// RunOptions is one family's run configuration: a typed struct whose
// fields are declared once as flags (the CLI's and the sweep plan keys),
// validated by Resolve, and turned into a runnable Spec by Build.
type RunOptions interface {
	// Flags declares every option on fs, with its default.
	Flags(fs *pflag.FlagSet)
	// Resolve validates the options once fs is parsed (fs.Changed tells
	// which were given) for variant, and completes the typed configuration.
	// It returns every input problem at once (usage errors naming the
	// flags); it does not touch the database.
	Resolve(variant string, fs *pflag.FlagSet) []error
	// Target is the connection part of the options.
	Target() *target.Flags
	// Partition is the scale-out part (--partition, --processes ...),
	// declared by Flags like every option.
	Partition() *partition.Flags
	// SetStep applies a sweep step to resolved options: the concurrency, the
	// warm-up and measurement durations, and the interval of its live
	// lines (the plan's report_interval; 0 turns them off).
	SetStep(concurrency int, warmup, duration, report time.Duration)
	// Clone returns an independent copy of resolved options.
	Clone() RunOptions
	// Build checks the data set through conn and returns the run to execute.
	// quiet suppresses warnings meant for an interactive run.
	Build(ctx context.Context, env *Env, conn *target.Connector, quiet bool) (*Spec, error)
	// JSONPath is --json ("" when not set).
	JSONPath() string
}

// Spec is a fully validated run of one workload, ready for the runner.
type Spec struct {
	Name     string // workload name as saved: "tpcc", "sysbench/oltp_read_write", "ycsb/a"
	Workload workload.Workload
	Runner   runner.Config
	Config   map[string]any // resolved options for the JSON (no secrets)
	// Live formats one live line; nil uses the generic formatter.
	Live func(runner.Report) string
	// Print writes the console report of a finished run.
	Print func(io.Writer, *results.Run)
	// Unit names what succeeded ("transaction", "event", "operation").
	Unit string
	// After runs once the run ended without error (e.g. TPC-C --check); it
	// may add to run.
	After func(ctx context.Context, conn *target.Connector, run *results.Run) error
}

// RunBase is what every family's run options share: the connection flags,
// --json and the runner settings. A family embeds it, binds the Runner
// fields under its own flag names (terminals or threads, duration or time)
// and keeps Runner resolved, so Target, JSONPath and SetStep are common.
type RunBase struct {
	TF     target.Flags
	JSON   string
	Runner runner.Config
	// Part is the scale-out options (--partition, --processes ...).
	Part partition.Flags
}

// Partition implements RunOptions.
func (b *RunBase) Partition() *partition.Flags { return &b.Part }

// Target implements RunOptions.
func (b *RunBase) Target() *target.Flags { return &b.TF }

// JSONPath implements RunOptions.
func (b *RunBase) JSONPath() string { return b.JSON }

// SetStep implements RunOptions: a sweep step's concurrency, timing and
// live lines.
func (b *RunBase) SetStep(concurrency int, warmup, duration, report time.Duration) {
	b.Runner.Terminals, b.Runner.Warmup, b.Runner.Duration, b.Runner.ReportInterval = concurrency, warmup, duration, report
}

// RegisterCommon declares the connection flags (with defaultURL) and --json:
// the flags every run command has. A new option of every family's run (and
// of every sweep case) belongs here, with its field in RunBase.
func (b *RunBase) RegisterCommon(fs *pflag.FlagSet, defaultURL string) {
	b.TF.Register(fs, defaultURL)
	fs.StringVar(&b.JSON, "json", "", "write the full result (summary, series, histograms) to this JSON file (- prints it as one line on stdout, for kubectl logs and benchpress merge)")
	b.Part.Register(fs)
}
