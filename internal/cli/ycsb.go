package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/target"
	"benchpress/internal/workload/ycsb"
)

func init() {
	extraCommands = append(extraCommands, newYCSBCmd)
	stepFamilies["ycsb"] = stepFamily{bind: func(app *App, fs *pflag.FlagSet, name string) func(context.Context) (*results.Run, error) {
		var f ycsbRunFlags
		f.register(fs)
		return func(ctx context.Context) (*results.Run, error) { return runYCSB(ctx, app, &f, fs, name, true) }
	}}
}

// ycsbJavaNames are the Java measurement names of ycsb.Workload.Ops().
var ycsbJavaNames = map[string]string{
	"read": "READ", "update": "UPDATE", "insert": "INSERT", "scan": "SCAN", "read_modify_write": "READ-MODIFY-WRITE",
}

func newYCSBCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ycsb",
		Short: "YCSB core workloads A-F (or custom properties): load, run, cleanup",
		Long: `YCSB's CoreWorkload over SQL, as the JDBC binding runs it: table usertable
(YCSB_KEY + FIELD0..FIELD9), keys "user" + FNV-64 hash of the key number like Java
YCSB (insertorder=hashed), and the workload files A-F of brianfrankcooper/YCSB:

  a  50 % read, 50 % update, zipfian        d  95 % read, 5 % insert, latest
  b  95 % read,  5 % update, zipfian        e  95 % scan, 5 % insert, zipfian, maxscanlength 100
  c  100 % read, zipfian                    f  50 % read, 50 % read-modify-write, zipfian

"custom" starts from CoreWorkload's defaults and takes everything from
--properties FILE. Any core property can be overridden with -p name=value; the
properties file is applied first, then -p, then --records / --operations.

go-ycsb's own workload files differ (uniform requests for A, B, C, E, F and
maxscanlength=1 for E): add -p requestdistribution=uniform to reproduce them.`,
		Args: noArgsUsage,
	}
	cmd.AddCommand(newYCSBLoadCmd(app), newYCSBRunCmd(app), newYCSBCleanupCmd(app))
	return cmd
}

// ycsbCommon are the flags every ycsb subcommand has.
type ycsbCommon struct {
	tf       targetFlags
	records  int64
	props    []string
	propFile string
}

func (c *ycsbCommon) register(fs *pflag.FlagSet) {
	c.tf.register(fs, defaultTarget)
	fs.Int64Var(&c.records, "records", 0, "recordcount: records loaded / key space of the run (default: the workload's, 1000)")
	fs.StringArrayVarP(&c.props, "p", "p", nil, "set a core property, name=value (repeatable), e.g. -p requestdistribution=uniform")
	fs.StringVar(&c.propFile, "properties", "", "Java properties file (YCSB workload file); applied before -p")
}

// resolve builds the properties of workload name: built-in (or empty for
// custom), then --properties, then -p, then --records. explicit reports the
// property names given by the user (file or -p).
func (c *ycsbCommon) resolve(name string) (ycsb.Props, map[string]bool, error) {
	var errs []error
	explicit := map[string]bool{}
	var p ycsb.Props
	switch strings.ToLower(name) {
	case "":
		errs = append(errs, usagef("missing WORKLOAD: one of %s or custom", strings.Join(ycsb.Workloads(), ", ")))
		p = ycsb.Props{}
	case "custom":
		p = ycsb.Props{}
		if c.propFile == "" {
			errs = append(errs, usagef("workload custom needs --properties FILE"))
		}
	default:
		var err error
		if p, err = ycsb.Properties(name); err != nil {
			errs = append(errs, usagef("%v (or custom with --properties FILE)", err))
			p = ycsb.Props{}
		}
	}
	if c.propFile != "" {
		fp, err := readPropFile(c.propFile)
		if err != nil {
			errs = append(errs, err)
		} else {
			for k := range fp {
				explicit[k] = true
			}
			p = p.Merge(fp)
		}
	}
	for _, kv := range c.props {
		if err := p.Set(kv); err != nil {
			errs = append(errs, usagef("-p %s: %v", kv, err))
			continue
		}
		k, _, _ := strings.Cut(kv, "=")
		explicit[strings.TrimSpace(k)] = true
	}
	if c.records < 0 {
		errs = append(errs, usagef("--records must be >= 1 (got %d)", c.records))
	} else if c.records > 0 {
		p["recordcount"] = strconv.FormatInt(c.records, 10)
		explicit["recordcount"] = true
	}
	return p, explicit, joinUsage(errs)
}

func readPropFile(path string) (ycsb.Props, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, usagef("--properties: %v", err)
	}
	defer fh.Close()
	p, err := ycsb.ParseProperties(fh)
	if err != nil {
		return nil, usagef("--properties %s: %v", path, err)
	}
	return p, nil
}

// ycsbArg returns the WORKLOAD argument.
func ycsbArg(args []string) (string, error) {
	switch len(args) {
	case 0:
		return "", usagef("missing WORKLOAD: one of %s or custom", strings.Join(ycsb.Workloads(), ", "))
	case 1:
		return args[0], nil
	}
	return "", usagef("unexpected argument %q (want one WORKLOAD)", args[1])
}

func newYCSBLoadCmd(app *App) *cobra.Command {
	var c ycsbCommon
	var threads int
	var drop bool
	cmd := &cobra.Command{
		Use:   "load WORKLOAD",
		Short: "Create usertable and insert recordcount records (YCSB load phase)",
		Long: `The YCSB load phase: creates usertable if it does not exist and inserts the
key numbers [insertstart, insertstart+insertcount) with random fields, split into
--threads contiguous ranges loaded in parallel with multi-row INSERTs.
Load with A before running A, B, C, F and D; load again (after cleanup) for E.`,
		Example: `  benchpress ycsb load a --target mysql://bench@127.0.0.1:3306/ycsb --records 1000000 --threads 8
  benchpress ycsb load custom --properties workloads/myload --target postgres://bench@db:5432/ycsb --drop`,
		RunE: func(cmd *cobra.Command, args []string) error {
			name, err := ycsbArg(args)
			if err != nil {
				return err
			}
			p, explicit, err := c.resolve(name)
			var errs []error
			if err != nil {
				errs = append(errs, err)
			}
			if !cmd.Flags().Changed("threads") && explicit["threadcount"] {
				threads, _ = strconv.Atoi(p["threadcount"])
			}
			if threads < 1 {
				errs = append(errs, usagef("--threads must be >= 1 (got %d)", threads))
			}
			var cfg ycsb.Config
			if err == nil {
				if cfg, err = ycsb.ParseConfig(p); err != nil {
					errs = append(errs, &UsageError{Err: err})
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
			if drop {
				admin, err := conn.Connect(ctx)
				if err != nil {
					return err
				}
				err = ycsb.Cleanup(ctx, admin, p)
				admin.Close()
				if err != nil {
					return err
				}
			}
			fmt.Fprintf(app.Err, "loading YCSB %s: %s records into %s on %s with %d thread(s)\n",
				name, fi(cfg.InsertCount), cfg.Table, conn.Target().Redacted(), threads)
			prog := newRowProgress(app, cfg.InsertCount)
			start := time.Now()
			if err := ycsb.Load(ctx, conn, p, threads, prog.add); err != nil {
				if ctx.Err() != nil {
					return ErrInterrupted
				}
				return err
			}
			prog.done()
			el := time.Since(start)
			fmt.Fprintf(app.Out, "[OVERALL], RunTime(ms), %d\n", el.Milliseconds())
			fmt.Fprintf(app.Out, "[OVERALL], Throughput(ops/sec), %.1f\n", float64(cfg.InsertCount)/el.Seconds())
			fmt.Fprintf(app.Out, "[INSERT], Operations, %d\n", cfg.InsertCount)
			fmt.Fprintf(app.Out, "[INSERT], Return=OK, %d\n", cfg.InsertCount)
			return nil
		},
	}
	c.register(cmd.Flags())
	cmd.Flags().IntVar(&threads, "threads", 4, "parallel loader sessions (default 4, or the threadcount property)")
	cmd.Flags().BoolVar(&drop, "drop", false, "drop usertable first")
	return cmd
}

func newYCSBCleanupCmd(app *App) *cobra.Command {
	var c ycsbCommon
	cmd := &cobra.Command{
		Use:     "cleanup [WORKLOAD]",
		Short:   "Drop usertable (or the table property's table)",
		Example: `  benchpress ycsb cleanup --target mysql://bench@127.0.0.1:3306/ycsb`,
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := "a"
			if len(args) == 1 {
				name = args[0]
			}
			p, _, err := c.resolve(name)
			if err != nil {
				return err
			}
			err = withAdmin(cmd.Context(), app, &c.tf, func(_ *target.Connector, admin target.Conn) error {
				return ycsb.Cleanup(cmd.Context(), admin, p)
			})
			if err != nil {
				return err
			}
			table := p["table"]
			if table == "" {
				table = "usertable"
			}
			fmt.Fprintf(app.Out, "dropped %s\n", table)
			return nil
		},
	}
	c.register(cmd.Flags())
	return cmd
}

// ycsbRunFlags are the flags of ycsb run (also bound by sweep steps).
type ycsbRunFlags struct {
	ycsbCommon
	threads        int
	operations     int64
	duration       time.Duration
	warmup         time.Duration
	rate           float64
	reportInterval time.Duration
	maxRetries     int
	jsonPath       string
}

func (f *ycsbRunFlags) register(fs *pflag.FlagSet) {
	f.ycsbCommon.register(fs)
	f.reportInterval = 10 * time.Second
	fs.IntVar(&f.threads, "threads", 1, "client threads (connections); default 1 or the threadcount property")
	fs.Int64Var(&f.operations, "operations", 0, "operationcount: stop after this many operations (default: the workload's, 1000,\nunless --time is given; whichever of --operations and --time ends first stops the run)")
	fs.Var(seconds{&f.duration}, "time", "stop after this many seconds (maxexecutiontime; or a duration such as 5m)")
	fs.Var(seconds{&f.duration}, "duration", "alias of --time (Go duration), as sweep plans set it")
	fs.Var(seconds{&f.warmup}, "warmup", "warm-up excluded from the statistics (YCSB has none; default 0)")
	fs.Float64Var(&f.rate, "rate", 0, "target total ops/s, open loop, latency from the intended start (the target property; 0 = unthrottled)")
	fs.Var(seconds{&f.reportInterval}, "report-interval", "seconds between live lines (0 = off)")
	fs.IntVar(&f.maxRetries, "max-retries", 0, "re-run an operation after a deadlock/serialization error (YCSB does not retry)")
	fs.StringVar(&f.jsonPath, "json", "", "write the full result (summary, series, histograms) to this JSON file")
}

// plan resolves properties and the run limits, returning every problem.
func (f *ycsbRunFlags) plan(fs *pflag.FlagSet, name string) (ycsb.Props, runner.Config, error) {
	var errs []error
	p, explicit, err := f.resolve(name)
	if err != nil {
		errs = append(errs, err)
	}
	cfg := runner.Config{Terminals: f.threads, Warmup: f.warmup, Duration: f.duration, Rate: f.rate,
		MaxRetries: f.maxRetries, ReportInterval: f.reportInterval}
	num := func(k string) (float64, bool) {
		v, ok := p[k]
		if !ok {
			return 0, false
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			errs = append(errs, usagef("property %s=%q: not a number", k, v))
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
		p["operationcount"] = strconv.FormatInt(f.operations, 10)
	case cfg.Duration > 0 && !explicit["operationcount"]:
		// --time without an explicit operationcount runs by time: the
		// workload file's operationcount=1000 would end it in a blink.
		p["operationcount"] = "0"
	}
	if v, ok := num("operationcount"); ok {
		cfg.MaxOps = int64(v)
	}
	if f.operations < 0 {
		errs = append(errs, usagef("--operations must not be negative (got %d)", f.operations))
	}
	errs = append(errs, runnerProblems(cfg, ycsbFlagNames, false)...)
	if cfg.MaxOps == 0 && cfg.Duration == 0 {
		errs = append(errs, usagef("set --operations or --time (both are 0: the run would never end)"))
	}
	if err == nil {
		if _, cerr := ycsb.ParseConfig(p); cerr != nil {
			errs = append(errs, &UsageError{Err: cerr})
		}
	}
	return p, cfg, joinUsage(errs)
}

func newYCSBRunCmd(app *App) *cobra.Command {
	var f ycsbRunFlags
	cmd := &cobra.Command{
		Use:   "run WORKLOAD",
		Short: "Run a YCSB workload (a-f or custom) and print per-operation latency like go-ycsb",
		Long: `Runs the transaction phase of WORKLOAD against a loaded usertable (exit code 6
if the table is missing, 7 if its first or last record is). The run stops after
--operations operations or --time seconds, whichever comes first; with --time
alone the workload's default operationcount is ignored. --rate throttles to a
total ops/s in open loop, measuring latency from each operation's intended start.`,
		Example: `  benchpress ycsb run a --target mysql://bench@127.0.0.1:3306/ycsb --records 1000000 --threads 32 --time 60
  benchpress ycsb run b --target postgres://bench@db:5432/ycsb --operations 1000000 --threads 16 --rate 20000 --json b.json
  benchpress ycsb run custom --properties myworkload --threads 8 -p readproportion=0.9 -p updateproportion=0.1`,
		RunE: func(cmd *cobra.Command, args []string) error {
			name, err := ycsbArg(args)
			if err != nil {
				return err
			}
			run, err := runYCSB(cmd.Context(), app, &f, cmd.Flags(), name, false)
			return finishRun(app, run, err, f.jsonPath, "operation", printYCSB)
		},
	}
	f.register(cmd.Flags())
	return cmd
}

// runYCSB validates, checks the table and runs workload name.
func runYCSB(ctx context.Context, app *App, f *ycsbRunFlags, fs *pflag.FlagSet, name string, quiet bool) (*results.Run, error) {
	p, rc, err := f.plan(fs, name)
	if err != nil {
		return nil, err
	}
	w, err := ycsb.New(p)
	if err != nil {
		return nil, &UsageError{Err: err}
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
	err = ycsb.CheckLoaded(ctx, admin, p)
	admin.Close()
	if err != nil {
		return nil, err
	}
	props := map[string]string{}
	for k, v := range p {
		if strings.Contains(strings.ToLower(k), "password") {
			v = "xxxxx"
		}
		props[k] = v
	}
	spec := &runSpec{
		Name: "ycsb/" + strings.TrimPrefix(strings.ToLower(name), "workload"), Workload: w, Connector: conn, Quiet: quiet,
		Runner: rc,
		Config: map[string]any{
			"workload": name, "threads": rc.Terminals, "operationcount": rc.MaxOps, "time": rc.Duration.String(),
			"warmup": rc.Warmup.String(), "rate": rc.Rate, "max_retries": rc.MaxRetries, "properties": props,
			"isolation": isoOrDefault(f.tf.Isolation), "statement_mode": f.tf.StatementMode,
		},
		Live: ycsbLiveLine,
	}
	return executeRun(ctx, app, spec)
}

// ycsbLiveLine is go-ycsb's periodic status, on one line:
// [ 10s ] OPS: 9876.5 | READ - Count: 49321, OPS: 4932.1, Avg(us): 393, 99th(us): 1000 | UPDATE - ...
func ycsbLiveLine(r runner.Report) string {
	secs := r.Seconds
	if secs <= 0 {
		secs = 1
	}
	var b strings.Builder
	var total, errs int64
	for i, name := range r.OpNames {
		c := r.Snap.Counts[i]
		n := c.OK + c.Rollback
		total += n
		errs += c.Errors()
		if n == 0 {
			continue
		}
		h := r.Snap.OKHist[i]
		fmt.Fprintf(&b, " | %s - Count: %d, OPS: %.1f, Avg(us): %.0f, 99th(us): %d",
			ycsbJavaName(name), n, float64(n)/secs, h.Mean(), h.ValueAtQuantile(99))
	}
	tag := ""
	if r.Phase == "warmup" {
		tag = " (warm-up)"
	}
	return fmt.Sprintf("[ %s ]%s OPS: %.1f, errors: %d%s", fmtElapsed(r.Elapsed), tag, float64(total)/secs, errs, b.String())
}

func ycsbJavaName(op string) string {
	if n, ok := ycsbJavaNames[op]; ok {
		return n
	}
	return strings.ToUpper(op)
}

// printYCSB writes the go-ycsb per-operation lines, then YCSB's [OVERALL]
// and return-code lines.
func printYCSB(w io.Writer, run *results.Run) {
	secs := run.Summary.DurationS
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
	fmt.Fprintf(w, "threads: %v, measured %.1f s after %.0f s warm-up%s\n", run.Config["threads"], secs, run.WarmupS, status)
	fmt.Fprintf(w, "Run finished, takes %s\n", time.Duration(secs*float64(time.Second)).Round(time.Millisecond))
	var okAll, errAll *hdr.Histogram
	merge := func(dst **hdr.Histogram, h *hdr.Histogram) {
		if *dst == nil {
			*dst = hdr.New(h.LowestTrackableValue(), h.HighestTrackableValue(), int(h.SignificantFigures()))
		}
		(*dst).Merge(h)
	}
	line := func(label string, h *hdr.Histogram) {
		n := h.TotalCount()
		ops := 0.0
		if secs > 0 {
			ops = float64(n) / secs
		}
		fmt.Fprintf(w, "%-6s - Takes(s): %.1f, Count: %d, OPS: %.1f, Avg(us): %.0f, Min(us): %d, Max(us): %d, 50th(us): %d, 90th(us): %d, 95th(us): %d, 99th(us): %d, 99.9th(us): %d, 99.99th(us): %d\n",
			label, secs, n, ops, h.Mean(), h.Min(), h.Max(), h.ValueAtQuantile(50), h.ValueAtQuantile(90),
			h.ValueAtQuantile(95), h.ValueAtQuantile(99), h.ValueAtQuantile(99.9), h.ValueAtQuantile(99.99))
	}
	for _, suffix := range []string{"", ".err"} {
		for _, o := range run.Ops {
			enc, ok := run.Histograms[o.Name+suffix]
			if !ok {
				continue
			}
			h, err := results.DecodeHistogram(enc)
			if err != nil || h.TotalCount() == 0 {
				continue
			}
			label := ycsbJavaName(o.Name)
			if suffix == "" {
				merge(&okAll, h)
			} else {
				label += "-FAILED"
				merge(&errAll, h)
			}
			line(label, h)
		}
	}
	if okAll != nil {
		line("TOTAL", okAll)
	}
	if errAll != nil {
		line("TOTAL-FAILED", errAll)
	}
	yc, _ := run.Extra["ycsb"].(map[string]any)
	ops, _ := yc["operations"].(int64)
	tput, _ := yc["throughput_ops_sec"].(float64)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "[OVERALL], RunTime(ms), %.0f\n", math.Round(secs*1000))
	fmt.Fprintf(w, "[OVERALL], Throughput(ops/sec), %.1f\n", tput)
	fmt.Fprintf(w, "[OVERALL], Operations, %d\n", ops)
	codes, _ := run.Extra["return_codes"].(map[string]map[string]int64)
	for _, op := range []string{"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"} {
		for _, rc := range []string{"OK", "NOT_FOUND", "ERROR"} {
			if n, ok := codes[op][rc]; ok {
				fmt.Fprintf(w, "[%s], Return=%s, %d\n", op, rc, n)
			}
		}
	}
	if yc != nil {
		if n, _ := yc["scan_records"].(int64); n > 0 {
			fmt.Fprintf(w, "[SCAN], Records, %d\n", n)
		}
	}
	if run.Summary.Errors > 0 {
		fmt.Fprintf(w, "errors: %d%s\n", run.Summary.Errors, errClasses(run.ErrorsByClass))
	}
	printDriverLine(w, run)
}
