package runwatch

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/monitor"
	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/target"
)

// Spec is what watching needs to know of the run.
type Spec struct {
	Name      string   // workload name as saved ("tpcc", "sysbench/oltp_read_write")
	Ops       []string // the workload's operations (live metrics)
	Terminals int
	Connector *target.Connector
	// HostsOnly watches the hosts and processes but reads no database
	// counters: a run in local child processes (--processes, a plan's
	// processes: N), whose window opens in the children; the parent
	// watches the machine they share and Finish gets the merged window.
	HostsOnly bool
}

// Run watches one run. A nil *Run does nothing.
type Run struct {
	opts    *Options
	spec    Spec
	watcher *monitor.Watcher
	admin   target.Conn
	dbStart chan dbRead
	// quiet is the PostgreSQL reading taken before the warm-up once every
	// backend flushed its statistics (nil: none); runOK counts the
	// transactions committed over the whole run, warm-up included.
	quiet *monitor.DBReading
	runOK int64
	errs  []string
	done  bool // Finish or Close ran
}

type dbRead struct {
	r   monitor.DBReading
	err error
}

// loadName is the load machine's name among the watched hosts: its host
// name, or "NAME (load)" when a --watch or plan host has that name (the
// user watching this machine's exporters as well): two hosts of one name
// would stop the whole watch.
func loadName(hostname string, others []monitor.HostSpec) string {
	for _, h := range others {
		if h.Name == hostname {
			return hostname + " (load)"
		}
	}
	return hostname
}

// Start starts watching the run of spec with the options o; it returns nil
// when watching is off and no live metrics are served. Problems (an
// exporter that does not answer, no admin session) do not stop the run:
// they end up in the result's notes.
func Start(ctx context.Context, o *Options, spec Spec) *Run {
	if o == nil || o.off {
		if o != nil && o.prom != nil {
			return &Run{opts: o, spec: spec}
		}
		return nil
	}
	w := &Run{opts: o, spec: spec}
	hostname, _ := os.Hostname()
	hosts := append(append([]monitor.HostSpec(nil), o.planHosts...), o.hosts...)
	wt, err := monitor.StartWatch(ctx, monitor.WatchConfig{Hosts: append([]monitor.HostSpec{{Name: loadName(hostname, hosts), Role: "load"}}, hosts...), Processes: o.procs, Interval: o.interval})
	if err != nil {
		// Names are checked when the options are parsed (ParseSpecs,
		// SetPlanHosts): not reached but for a broken watch.
		w.errs = append(w.errs, err.Error())
	}
	w.watcher = wt
	switch {
	case spec.HostsOnly:
		w.errs = append(w.errs, "database counters: not read for a run in child processes (its window opens in each child); hosts and processes were watched by the parent over the merged window")
	case spec.Connector.Target().Kind != target.SQLite:
		if c, err := spec.Connector.Connect(ctx); err == nil {
			w.admin = c
		} else {
			w.errs = append(w.errs, "database counters: no admin session: "+err.Error())
		}
	}
	return w
}

// Hook installs the watch's callbacks into the runner configuration: the
// live metrics' tick, and the window-start reading chained into OnPhase
// (set OnPhase before calling Hook).
func (w *Run) Hook(ctx context.Context, cfg *runner.Config) {
	if w == nil {
		return
	}
	if w.opts.prom != nil {
		live := w.opts.prom.Live
		live.Begin(w.spec.Name, w.spec.Ops, cfg.Terminals)
		cfg.OnTick = live.Tick
	}
	if w.admin != nil && w.spec.Connector.Target().Kind == target.Postgres {
		w.hookQuietStart(cfg)
	}
	next := cfg.OnPhase
	cfg.OnPhase = func(p string) {
		if p == "measure" {
			w.Measure(ctx)
		}
		if next != nil {
			next(p)
		}
	}
}

// Measure reads the database counters as the window opens (off the ticker
// goroutine: the read's round trip must not delay the tick). Hook calls it
// at the "measure" phase (with or without warm-up: the runner announces
// the window's start either way).
func (w *Run) Measure(ctx context.Context) {
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

// Close stops watching without figures (a run that never ran, or failed):
// the host sampling ends, the admin session closes and the live metrics say
// the run is done. It does nothing after Finish or a first Close, so that a
// deferred Close covers every return path.
func (w *Run) Close() {
	if w == nil || w.done {
		return
	}
	w.done = true
	if w.opts.prom != nil {
		w.opts.prom.Live.End()
	}
	if w.watcher != nil {
		w.watcher.Stop()
	}
	if w.admin != nil {
		if w.dbStart != nil {
			<-w.dbStart // the window-start reading still uses the session (bounded: Measure)
		}
		w.admin.Close()
	}
}

// Finish stops watching and stores the figures of the window [from, to] in
// run (Watch and Notes). It does nothing after Close or a first Finish.
func (w *Run) Finish(ctx context.Context, run *results.Run, from, to time.Time) {
	if w == nil || w.done {
		return
	}
	w.done = true
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
		run.AddNote(dbNote(run.Watch.Database))
	}
	for _, e := range w.errs {
		run.AddNote(e)
	}
}

// dbNote is the run's note on the database counters ("" when none): the
// commit counts disagree, or the counters could not be read (the admin
// session lost: killed with the terminals, a server restart, a failover),
// so the server's commits could not be compared with the tool's.
func dbNote(db *results.DBFigures) string {
	switch {
	case db == nil:
		return ""
	case db.Error != "":
		return "database counters could not be read, so the commit check could not be made: " + strings.TrimPrefix(db.Error, "database counters: ")
	case db.CommitCheck == "disagree":
		return "commit counts disagree: " + db.CommitNote
	}
	return ""
}

// dbFigures reads the counters at the window's end and the data set size.
func (w *Run) dbFigures(ctx context.Context, run *results.Run) *results.DBFigures {
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
	f := monitor.DBFiguresOf(start.r, end, w.commitCheck(run))
	if size, err := monitor.ReadDBSize(ctx, w.admin); err == nil {
		if hasRawBytes(run.Workload) {
			size.RawBytes = monitor.ReadRawBytes(ctx, w.admin)
		}
		f.Size = size
	}
	return f
}

// hasRawBytes tells whether the raw bytes in benchpress_meta describe the
// workload's data: only TPC-C's prepare records them, and a YCSB or
// sysbench run in a database that also holds TPC-C tables would otherwise
// show TPC-C's raw size against its own tables as a compression ratio.
func hasRawBytes(workload string) bool { return workload == "tpcc" }

// commitCheck is how the run's commits are compared with the server's.
// From the quiet reading (hookQuietStart) the whole run is compared:
// nothing was in flight or held back at its start, all was drained and
// flushed (the sessions closed) at its end, so what remains are the admin
// session's own readings, a statement a terminal abandoned after the drain
// grace, and the set-up of sessions that replaced lost ones (each prepared
// statement is a server transaction). Otherwise the window is compared:
// transactions in flight at each edge fall on either side, one per
// terminal, and on PostgreSQL the window-start reading misses what the
// backends had not flushed yet (a second or more): two seconds of
// throughput more.
func (w *Run) commitCheck(run *results.Run) monitor.CommitCheck {
	var cc monitor.CommitCheck
	cc.Comparable, cc.Why = commitsComparable(run)
	if w.quiet != nil {
		cc.From, cc.ToolCommits = w.quiet, w.runOK
		cc.Slack = int64(w.spec.Terminals) + 8 + reconnectSetup*(run.Reconnects+run.WarmupReconnects)
		return cc
	}
	for _, o := range run.Ops {
		cc.ToolCommits += o.Count - o.Rollbacks
	}
	cc.Slack = int64(w.spec.Terminals) + 2
	if w.spec.Connector.Target().Kind == target.Postgres {
		cc.Slack += int64(2 * run.Summary.TPS)
	}
	return cc
}

// commitsComparable tells whether each of the workload's transactions is
// one server commit: TPC-C, and the sysbench tests whose every event is one
// BEGIN..COMMIT (transactional, not --skip-trx). The other sysbench tests
// run their statements in autocommit, all or part (oltp_point_select,
// oltp_update_index, oltp_update_non_index, oltp_insert, oltp_delete;
// oltp_read_write_split's reads before its transaction), which MySQL's
// Com_commit does not count and PostgreSQL's xact_commit counts one each;
// YCSB runs in autocommit. None is comparable through a sharding proxy
// (target.ProxyName): a transaction commits on every backend it touched,
// and the counters read through the proxy are its own or one backend's; nor
// in one partition of a run split over N processes, whose server counts
// every partition's commits. why says so for those two ("" for the
// workload's reason).
func commitsComparable(run *results.Run) (ok bool, why string) {
	switch {
	case run.Workload == "tpcc":
		ok = true
	case strings.HasPrefix(run.Workload, "sysbench/"):
		skip, _ := run.Config["skip_trx"].(bool)
		ok = !skip && oneTransactionPerEvent[strings.TrimPrefix(run.Workload, "sysbench/")]
	}
	if px := target.ProxyName(run.ServerVersion); ok && px != "" {
		return false, "through " + px + " a transaction commits on every backend it touched, and the counters read through it are not the tool's transactions"
	}
	if p := run.Partition; ok && p != nil && p.Count > 1 {
		return false, fmt.Sprintf("partition %d/%d: the server's counters count every partition's commits", p.Index, p.Count)
	}
	return ok, ""
}

// oneTransactionPerEvent are the sysbench tests whose event is one
// BEGIN..COMMIT and nothing outside it (the sysbench package's plans).
var oneTransactionPerEvent = map[string]bool{"oltp_read_only": true, "oltp_read_write": true, "oltp_write_only": true}

// reconnectSetup is the commit check's allowance per replaced session: its
// set-up (the workload's prepared statements, TPC-C's most) commits on the
// server and not in the tool's count.
const reconnectSetup = 64

// hookQuietStart has the runner flush every PostgreSQL backend's held-back
// statistics once the terminals are ready and read the counters then
// (runner.Config.BeforeStart), and counts every committed transaction of
// the run (OnTick sees warm-up and window alike): the commit check then
// compares the whole run, free of the second or more (under contention)
// that a reading taken while the terminals work lags.
func (w *Run) hookQuietStart(cfg *runner.Config) {
	before := cfg.BeforeStart
	cfg.BeforeStart = func(ctx context.Context, conns []target.Conn) {
		if before != nil {
			before(ctx, conns)
		}
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if monitor.FlushPGStats(ctx, w.admin, conns) != nil {
			return // the window's reading, with its slack, decides
		}
		if r, err := monitor.ReadDBCounters(ctx, w.admin); err == nil {
			w.quiet = &r
		}
	}
	tick := cfg.OnTick
	cfg.OnTick = func(s *metrics.Snapshot, dur time.Duration, measured bool) {
		for i := range s.Counts {
			w.runOK += s.Counts[i].OK
		}
		if tick != nil {
			tick(s, dur, measured)
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
