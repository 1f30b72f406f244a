package cli

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"benchpress/internal/monitor"
	"benchpress/internal/promout"
	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/target"
)

// watchOpts are the watching flags of every `run` command and of `sweep`:
// --watch, --watch-interval, --watch-procs, --no-watch and --metrics-addr.
type watchOpts struct {
	specs       []string // raw --watch values
	interval    time.Duration
	procs       []string
	off         bool
	metricsAddr string

	hosts     []monitor.HostSpec // parsed --watch plus the plan's hosts
	planHosts []monitor.HostSpec // set by sweep from the plan's hosts:
	prom      *promout.Server    // open while the command runs with --metrics-addr
}

// addWatchFlags adds the watching flags to every command named "run" and
// to "sweep", and wraps their RunE to parse them and serve --metrics-addr
// for the command's lifetime.
func addWatchFlags(root *cobra.Command, app *App) {
	app.watch = &watchOpts{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if (c.Name() == "run" || c.Name() == "sweep") && c.RunE != nil {
			bindWatch(c, app.watch)
		}
	}
	walk(root)
}

func bindWatch(c *cobra.Command, w *watchOpts) {
	f := c.Flags()
	f.StringArrayVar(&w.specs, "watch", nil, "watch a host: NAME[:ROLE]=URL[,URL] with its node_exporter and/or process-exporter /metrics URL(s) (repeatable); the load machine is always watched")
	f.DurationVar(&w.interval, "watch-interval", time.Second, "host sampling interval")
	f.StringSliceVar(&w.procs, "watch-procs", nil, "process names watched on the load machine (default "+strings.Join(monitor.DefaultProcessNames, ",")+")")
	f.BoolVar(&w.off, "no-watch", false, "watch nothing: no host, process or database figures")
	f.StringVar(&w.metricsAddr, "metrics-addr", "", "serve live Prometheus metrics on this loopback address (e.g. 127.0.0.1:9400) at /metrics")
	inner := c.RunE
	c.RunE = func(cmd *cobra.Command, args []string) error {
		hosts, err := parseWatchSpecs(w.specs)
		if err != nil {
			return err
		}
		if w.interval <= 0 {
			return usagef("--watch-interval must be positive (got %s)", w.interval)
		}
		w.hosts = hosts
		if w.metricsAddr != "" {
			s, err := promout.Listen(w.metricsAddr, false)
			if err != nil {
				return usagef("--metrics-addr: %v", err)
			}
			w.prom = s
			fmt.Fprintf(cmd.ErrOrStderr(), "live metrics on http://%s/metrics\n", s.Addr())
			defer func() { _ = s.Close(); w.prom = nil }()
		}
		return inner(cmd, args)
	}
}

// parseWatchSpecs parses --watch values: NAME[:ROLE]=URL[,URL...].
func parseWatchSpecs(specs []string) ([]monitor.HostSpec, error) {
	var out []monitor.HostSpec
	var errs []string
	for _, s := range specs {
		left, urls, ok := strings.Cut(s, "=")
		name, role, _ := strings.Cut(left, ":")
		if !ok || name == "" || urls == "" {
			errs = append(errs, fmt.Sprintf("--watch %q: want NAME[:ROLE]=URL[,URL]", s))
			continue
		}
		h := monitor.HostSpec{Name: name, Role: role}
		for _, u := range strings.Split(urls, ",") {
			pu, err := url.Parse(u)
			if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
				errs = append(errs, fmt.Sprintf("--watch %q: %q is not an http(s) URL", s, u))
				continue
			}
			h.URLs = append(h.URLs, u)
		}
		out = append(out, h)
	}
	if len(errs) > 0 {
		return nil, usagef("%s", strings.Join(errs, "; "))
	}
	return out, nil
}

// runWatch watches one run: hosts and processes from before the terminals
// connect until the run ends, the database's counters at the window's edges
// and the live metrics. A nil *runWatch does nothing.
type runWatch struct {
	opts    *watchOpts
	spec    *runSpec
	watcher *monitor.Watcher
	admin   target.Conn
	dbStart chan dbRead
	errs    []string
}

type dbRead struct {
	r   monitor.DBReading
	err error
}

// startRunWatch starts watching for spec; it returns nil when watching is
// off. Problems (an exporter that does not answer, no admin session) do not
// stop the run: they end up in the result's notes.
func startRunWatch(ctx context.Context, app *App, spec *runSpec) *runWatch {
	o := app.watch
	if o == nil || o.off {
		if o != nil && o.prom != nil {
			return &runWatch{opts: o, spec: spec}
		}
		return nil
	}
	w := &runWatch{opts: o, spec: spec}
	hostname, _ := os.Hostname()
	hosts := []monitor.HostSpec{{Name: hostname, Role: "load"}}
	hosts = append(hosts, o.planHosts...)
	hosts = append(hosts, o.hosts...)
	wt, err := monitor.StartWatch(ctx, monitor.WatchConfig{Hosts: hosts, Processes: o.procs, Interval: o.interval})
	if err != nil {
		w.errs = append(w.errs, "watch: "+err.Error())
	}
	w.watcher = wt
	if spec.Connector.Target().Kind != target.SQLite {
		if c, err := spec.Connector.Connect(ctx); err == nil {
			w.admin = c
		} else {
			w.errs = append(w.errs, "database counters: no admin session: "+err.Error())
		}
	}
	return w
}

// hook installs the watch's callbacks into the runner configuration.
func (w *runWatch) hook(cfg *runner.Config) {
	if w == nil {
		return
	}
	if w.opts.prom != nil {
		live := w.opts.prom.Live
		live.Begin(w.spec.Name, w.spec.Workload.Ops(), cfg.Terminals)
		cfg.OnTick = live.Tick
	}
}

// measure reads the database counters as the window opens (off the ticker
// goroutine: the read's round trip must not delay the tick).
func (w *runWatch) measure(ctx context.Context) {
	if w == nil || w.admin == nil {
		return
	}
	w.dbStart = make(chan dbRead, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		r, err := monitor.ReadDBCounters(ctx, w.admin)
		w.dbStart <- dbRead{r, err}
	}()
}

// finish stops watching and stores the figures of the window [from, to] in
// run (Watch and Notes).
func (w *runWatch) finish(ctx context.Context, run *results.Run, from, to time.Time) {
	if w == nil {
		return
	}
	if w.opts.prom != nil {
		w.opts.prom.Live.End()
	}
	if w.opts.off {
		return
	}
	if w.watcher != nil {
		w.watcher.Stop()
		sum, notes := w.watcher.Summary(from, to)
		run.Watch = sum
		for _, n := range notes {
			run.AddNote(n)
		}
	}
	if run.Watch == nil {
		run.Watch = &results.Watch{IntervalS: w.opts.interval.Seconds()}
	}
	if w.admin != nil {
		// An interrupted run still gets its figures: bounded, not cancelled.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
		defer cancel()
		defer w.admin.Close()
		run.Watch.Database = w.dbFigures(ctx, run)
		if db := run.Watch.Database; db.CommitCheck == "disagree" {
			run.AddNote("commit counts disagree: " + db.CommitNote)
		}
	}
	for _, e := range w.errs {
		run.AddNote(e)
	}
}

// dbFigures reads the counters at the window's end and the data set size.
func (w *runWatch) dbFigures(ctx context.Context, run *results.Run) *results.DBFigures {
	kind := w.spec.Connector.Target().Kind
	if w.dbStart == nil {
		return &results.DBFigures{Kind: string(kind), Error: "the measurement window never opened"}
	}
	start := <-w.dbStart
	if start.err != nil {
		return &results.DBFigures{Kind: string(kind), Error: start.err.Error()}
	}
	if kind == target.Postgres {
		// Backends flush their statistics at most once a second.
		sleepCtx(ctx, 1100*time.Millisecond)
	}
	end, err := monitor.ReadDBCounters(ctx, w.admin)
	if err != nil {
		return &results.DBFigures{Kind: string(kind), Error: err.Error()}
	}
	var committed int64
	for _, o := range run.Ops {
		committed += o.Count - o.Rollbacks
	}
	// Transactions in flight at each edge fall on either side: one per
	// terminal. PostgreSQL's backends flush their statistics at most once a
	// second, so the window-start reading misses up to about a second of
	// warm-up commits that count later: allow two seconds of throughput.
	slack := int64(w.spec.Runner.Terminals) + 2
	if kind == target.Postgres {
		slack += int64(2 * run.Summary.TPS)
	}
	f := monitor.DBFiguresOf(start.r, end, monitor.CommitCheck{
		ToolCommits: committed, Comparable: commitsComparable(run), Slack: slack,
	})
	if size, err := monitor.ReadDBSize(ctx, w.admin); err == nil {
		size.RawBytes = monitor.ReadRawBytes(ctx, w.admin)
		f.Size = size
	}
	return f
}

// commitsComparable tells whether each of the workload's transactions is
// one server commit: TPC-C and sysbench in transactions (not
// oltp_point_select, not --skip-trx); YCSB runs in autocommit.
func commitsComparable(run *results.Run) bool {
	switch {
	case run.Workload == "tpcc":
		return true
	case strings.HasPrefix(run.Workload, "sysbench/"):
		skip, _ := run.Config["skip_trx"].(bool)
		return !skip && run.Workload != "sysbench/oltp_point_select"
	}
	return false
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// watchPhases chains the watch's window-start reading into OnPhase.
func watchPhases(ctx context.Context, w *runWatch, next func(string)) func(string) {
	if w == nil {
		return next
	}
	return func(p string) {
		if p == "measure" {
			w.measure(ctx)
		}
		if next != nil {
			next(p)
		}
	}
}

// watchPlanHosts adds a plan's hosts: to the hosts every step watches.
func watchPlanHosts(app *App, hosts []monitor.HostSpec) {
	if app.watch == nil {
		app.watch = &watchOpts{interval: time.Second}
	}
	app.watch.planHosts = hosts
}
