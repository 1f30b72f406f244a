package runner

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// Dialer opens sessions (a *target.Connector spreads them over endpoints).
type Dialer interface {
	Connect(ctx context.Context) (target.Conn, error)
}

// Result is what a run measured. The caller turns it into a results.Run.
type Result struct {
	Registry    *metrics.Registry
	Cumulative  *metrics.Snapshot // the measurement window
	Series      []Tick            // one per second, warm-up included
	Started     time.Time         // all terminals connected; warm-up starts
	MeasureFrom time.Time
	MeasureTo   time.Time
	Interrupted bool // stopped early by the caller's context (Ctrl-C)
	// Reconnects counts the sessions re-opened after a loss in the
	// measurement window (or after it); WarmupReconnects after a loss in
	// the warm-up (a session lost in one phase may be re-opened in the
	// next: each counts where it was lost, as its error does).
	Reconnects, WarmupReconnects int64
	// ReconnectFailures counts failed attempts to replace a lost session.
	ReconnectFailures int64
	// WarmupErrors counts the transactions started in the warm-up that
	// failed (after their retries): outside the window's figures, as
	// their latencies are, but a run whose start failed must say so
	// beside the window's zero.
	WarmupErrors int64
	// Abandoned counts the transactions started in the measurement window
	// that were still in flight when the drain's grace ran out and were
	// aborted: no outcome and no latency of theirs is in the figures
	// (they ran at least DrainGrace), so the run must say so.
	Abandoned int64
	// Fatal is the error that stopped the run early: a permission or
	// resource-limit error (target.Class.Fatal) fails every terminal the
	// same way, so the run ends at the first one.
	Fatal error
	// ErrorSamples are the first distinct messages per error class.
	ErrorSamples []results.ErrorSample
	// Late and Dropped are the open-loop counts (Config.Rate): operations
	// that started more than LateAfter behind their intended time, and
	// intended starts never run because the window closed.
	Late, Dropped int64
	// StartedOps counts operations started in the measurement window;
	// ServiceTime is their summed service time (actual start to completion).
	StartedOps  int64
	ServiceTime time.Duration
	// ServerVersion as reported by the first connection.
	ServerVersion string
	// ConnectTime is how long the start took: opening every session and
	// preparing every terminal's statements, until Started.
	ConnectTime time.Duration
	// FailedPerTerminal is each terminal's failed attempts counted in the
	// measurement window (not retries), by terminal number: with
	// PerTerminal, PerTerminalEvents.
	FailedPerTerminal []int64
	// PerTerminal is each terminal's attempts counted in the measurement
	// window (successes, spec rollbacks, failures; not retries), by
	// terminal number.
	PerTerminal []int64
	// LongestIdle is each terminal's longest stretch of the measurement
	// window, in seconds, without a completed attempt (whole one-second
	// ticks; metrics.Registry.LongestIdle), by terminal number.
	LongestIdle []float64
}

// MeasuredSeconds is the length of the measurement window actually run.
func (r *Result) MeasuredSeconds() float64 {
	if r.MeasureFrom.IsZero() || r.MeasureTo.Before(r.MeasureFrom) {
		return 0
	}
	return r.MeasureTo.Sub(r.MeasureFrom).Seconds()
}

// PerTerminalEvents is each terminal's successful operations (spec
// rollbacks included) in the measurement window, by terminal number:
// PerTerminal without the failed attempts. It is what sysbench calls a
// thread's events.
func (r *Result) PerTerminalEvents() []int64 {
	out := make([]int64, len(r.PerTerminal))
	for i, n := range r.PerTerminal {
		if i < len(r.FailedPerTerminal) {
			n -= r.FailedPerTerminal[i]
		}
		out[i] = n
	}
	return out
}

// Tick is one second of the run, summarized when it ended (histograms are
// not kept, so a long run's series stays small).
type Tick struct {
	T        float64 // seconds since Started, at the end of the tick
	Dur      float64 // seconds the tick covers
	Measured bool    // the tick is inside the measurement window
	Ops      []TickOp
}

// TickOp is one operation type within one tick.
type TickOp struct {
	Count  int64 // successful, including workload-defined rollbacks
	Errors int64
	AvgMS  float64
	P95MS  float64
	P99MS  float64
}

// summarizeTick turns an interval snapshot into per-op figures.
func summarizeTick(s *metrics.Snapshot) []TickOp {
	ops := make([]TickOp, len(s.Counts))
	for i := range s.Counts {
		c := &s.Counts[i]
		o := TickOp{Count: c.OK + c.Rollback, Errors: c.Errors()}
		if h := s.OKHist[i]; h != nil && h.TotalCount() > 0 {
			o.AvgMS = h.Mean() / 1000
			o.P95MS = float64(h.ValueAtQuantile(95)) / 1000
			o.P99MS = float64(h.ValueAtQuantile(99)) / 1000
		}
		ops[i] = o
	}
	return ops
}

// Report is a live line: the last ReportInterval.
type Report struct {
	Elapsed  time.Duration
	Phase    string
	Seconds  float64
	Snap     *metrics.Snapshot // valid only during the OnReport call
	OpNames  []string
	Terminal int
	// Final marks the run's last line: what is left of the window since
	// the line before and the drain of the transactions still in flight
	// when it closed (Seconds long), printed once they have completed.
	Final bool
}

// Run executes wl with cfg. It returns a Result for whatever was measured,
// also when ctx is cancelled (Interrupted is then set). It returns an error
// only when the run could not start.
func Run(ctx context.Context, cfg Config, wl workload.Workload, d Dialer) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	reg := metrics.NewRegistry(wl.Ops(), wl.Extras(), cfg.Terminals)
	res := &Result{Registry: reg}

	connectStart := time.Now()
	conns, err := openAll(ctx, cfg, d)
	if err != nil {
		return nil, err
	}
	if len(conns) > 0 {
		res.ServerVersion = conns[0].ServerVersion()
	}
	terms, err := newTerminals(ctx, cfg, wl, conns)
	if err != nil {
		return nil, err
	}
	if cfg.BeforeStart != nil {
		cfg.BeforeStart(ctx, conns)
	}
	var wg sync.WaitGroup
	gate := startTerminals(len(terms), cfg.ThreadEach || cfg.OwnThreads, cfg.OwnThreads, &wg)
	synced, err := awaitStart(ctx, &cfg, terms, conns)
	if err != nil {
		gate.open(nil)
		wg.Wait()
		return nil, err
	}

	// softCtx ends the loops (no new transactions, sleeps wake up); hardCtx
	// aborts transactions still in flight after the drain grace period.
	softCtx, stopSoft := context.WithCancel(context.Background())
	hardCtx, stopHard := context.WithCancel(context.Background())
	defer stopSoft()
	defer stopHard()
	var reconnects [2]atomic.Int64 // by the phase of the loss: warm-up, window
	var reconnectFails atomic.Int64
	var warmupErrors, abandoned atomic.Int64
	var pacer *ratePacer
	res.Started = time.Now()
	res.ConnectTime = res.Started.Sub(connectStart) - synced
	if cfg.Rate > 0 {
		pacer = newRatePacer(res.Started, cfg.Rate, cfg.Poisson, cfg.Seed)
	}
	samples := newErrorSamples(wl.Ops())
	stop := newFatalStop()
	open := &openLoop{}
	if cfg.Warmup == 0 {
		reg.SetPhase(metrics.Measure)
		res.MeasureFrom = res.Started
		// The window opens now, every terminal connected and prepared:
		// what a run measures from its window (the driver's CPU, the
		// server's counters) starts here too, not before the sessions.
		if cfg.OnPhase != nil {
			cfg.OnPhase("measure")
		}
	}
	budget := newOpBudget(cfg.MaxOps)
	// The phase edges as planned; the terminals nudge the ticker once one
	// has passed (phaseEdges), in case its timer is late.
	edges := newPhaseEdges()
	var warmEndAt, runEndAt time.Time
	if cfg.Warmup > 0 {
		warmEndAt = res.Started.Add(cfg.Warmup)
	}
	if cfg.Duration > 0 {
		runEndAt = res.Started.Add(cfg.Warmup + cfg.Duration)
	}
	if !warmEndAt.IsZero() {
		edges.set(warmEndAt)
	} else {
		edges.set(runEndAt)
	}

	loops := make([]func(), len(terms))
	for i := range terms {
		w := &worker{
			id: i, n: len(terms), cfg: &cfg, wl: wl, dialer: d, reg: reg,
			term: terms[i], conn: conns[i], rec: reg.Recorder(i),
			reconnects: &reconnects, reconnectFails: &reconnectFails, warmupErrors: &warmupErrors, abandoned: &abandoned, pacer: pacer, budget: budget,
			samples: samples, stop: stop, open: open, edges: edges,
		}
		loops[i] = func() { w.loop(softCtx, hardCtx) }
	}
	gate.open(loops)

	// The ticker: the only goroutine that merges shards.
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var warmEnd <-chan time.Time
	if cfg.Warmup > 0 {
		warmEnd = time.After(time.Until(warmEndAt))
	}
	var runEnd <-chan time.Time
	if cfg.Duration > 0 {
		runEnd = time.After(time.Until(runEndAt))
	}
	rep := newReporter(&cfg, reg, res.Started)
	// lastTick is the end of the previous tick; draining is set once the
	// window has closed: the drain's completions count, its length is not
	// the terminals' idle time.
	lastTick, draining := res.Started, false
	// doTick closes one series interval. An interval shorter than
	// minTick (a phase edge right after a regular tick, or the drain after
	// the window closed) is folded into the previous one of its phase,
	// with its length (foldTick), instead of being saved as a
	// near-zero-length sample with a meaningless rate; a window shorter
	// than minTick keeps its own interval (never the warm-up's).
	doTick := func() {
		measured := reg.Phase() == metrics.Measure
		s := reg.Tick()
		now := time.Now()
		tickDur := now.Sub(lastTick)
		dur := tickDur.Seconds()
		if measured && !draining {
			reg.Idle(dur)
		}
		ops := summarizeTick(s)
		t := now.Sub(res.Started).Seconds()
		if n := len(res.Series); n > 0 && dur < minTick.Seconds() && res.Series[n-1].Measured == measured {
			foldTick(&res.Series[n-1], ops, t, dur)
		} else {
			res.Series = append(res.Series, Tick{T: t, Dur: dur, Measured: measured, Ops: ops})
		}
		lastTick = now
		rep.add(s, now)
		if cfg.OnTick != nil {
			cfg.OnTick(s, tickDur, measured)
		}
	}
	// finish closes the window: no new transactions start; those in flight
	// complete (up to the grace period) and are counted in the phase they
	// started in; then the final tick merges everything.
	finish := func(interrupted bool) {
		edges.set(time.Time{})
		doTick()
		if reg.Phase() == metrics.Measure {
			res.MeasureTo = time.Now()
		}
		res.Interrupted = interrupted
		draining = true
		stopSoft()
		if cfg.OnPhase != nil {
			cfg.OnPhase("closed")
		}
		grace := DrainGrace
		if interrupted {
			grace = interruptGrace
		}
		// A drain that outlasts DrainNotice is announced (phase "drain"):
		// with terminals queued on a few rows' locks it can take the
		// whole grace period, and the run would look hung.
		done := waitTimeout(&wg, min(grace, DrainNotice))
		if !done && grace > DrainNotice {
			if !interrupted && cfg.OnPhase != nil {
				cfg.OnPhase("drain")
			}
			done = waitTimeout(&wg, grace-DrainNotice)
		}
		if !done {
			stopHard()
			waitTimeout(&wg, 5*time.Second)
		}
		rep.ending = true
		doTick()
		rep.flush(time.Now())
		reg.SetPhase(metrics.Done)
		if cfg.OnPhase != nil {
			cfg.OnPhase("done")
		}
	}
	// openWindow ends the warm-up.
	openWindow := func() {
		doTick()
		rep.phaseEdge(time.Now())
		tick.Reset(time.Second) // measured intervals start at the window's start
		res.MeasureFrom = time.Now()
		reg.SetPhase(metrics.Measure)
		edges.set(runEndAt)
		if cfg.OnPhase != nil {
			cfg.OnPhase("measure")
		}
	}
loop:
	for {
		select {
		case <-tick.C:
			doTick()
		case <-warmEnd:
			warmEnd = nil
			openWindow()
		case <-runEnd:
			finish(false)
			break loop
		case <-edges.nudge:
			now := time.Now()
			if warmEnd != nil && !now.Before(warmEndAt) {
				warmEnd = nil
				openWindow()
			}
			if runEnd != nil && !now.Before(runEndAt) {
				finish(false)
				break loop
			}
		case <-budget.exhausted:
			finish(false)
			break loop
		case <-ctx.Done():
			finish(true)
			break loop
		case <-stop.done:
			finish(false)
			break loop
		}
	}
	res.Fatal = stop.err()
	res.FailedPerTerminal = reg.PerRecorderFailed()
	res.ErrorSamples = samples.list()
	res.ReconnectFailures = reconnectFails.Load()
	res.Late, res.StartedOps = open.late.Load(), open.started.Load()
	res.ServiceTime = time.Duration(open.serviceUS.Load()) * time.Microsecond
	if pacer != nil && !res.MeasureFrom.IsZero() {
		res.Dropped = pacer.dropped(res.MeasureTo, res.StartedOps, res.MeasureFrom)
	}
	res.WarmupReconnects, res.Reconnects = reconnects[0].Load(), reconnects[1].Load()
	res.WarmupErrors = warmupErrors.Load()
	res.Abandoned = abandoned.Load()
	res.Cumulative = reg.Cumulative()
	res.PerTerminal = reg.PerRecorder()
	res.LongestIdle = reg.LongestIdle()
	if res.MeasureTo.IsZero() {
		res.MeasureTo = res.MeasureFrom
	}
	return res, nil
}

// minTick is the shortest series interval kept on its own (see doTick).
const minTick = 250 * time.Millisecond

// foldTick adds a short tick's counts and its length to the previous
// interval, which then ends where the short tick ended (t): counts and
// time stay together, so the interval's rate is not inflated by a drain's
// completions (about 1000 in-flight transactions at 1024 terminals folded
// into a one-second point: +13 %) and no time is lost between intervals.
// The previous interval's latency figures stay (the few completions of a
// drain do not move them meaningfully, and percentiles cannot be merged
// without histograms).
func foldTick(prev *Tick, ops []TickOp, t, dur float64) {
	prev.T, prev.Dur = t, prev.Dur+dur
	for i := range ops {
		if i < len(prev.Ops) {
			prev.Ops[i].Count += ops[i].Count
			prev.Ops[i].Errors += ops[i].Errors
		}
	}
}
