package runner

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// worker is one terminal's goroutine.
type worker struct {
	id, n      int
	cfg        *Config
	wl         workload.Workload
	dialer     Dialer
	term       workload.Terminal
	conn       target.Conn
	reg        *metrics.Registry
	rec        *metrics.Recorder
	reconnects *[2]atomic.Int64 // re-opened sessions by the loss's phase: warm-up, window
	// reconnectFails counts failed attempts to replace a lost session.
	reconnectFails *atomic.Int64
	warmupErrors   *atomic.Int64 // failed transactions started in the warm-up
	abandoned      *atomic.Int64 // window transactions aborted after the drain's grace
	pacer          *ratePacer
	clock          *poissonClock // Poisson arrivals: this terminal's process
	budget         *opBudget
	samples        *errorSamples
	stop           *fatalStop
	open           *openLoop
	lastYield      time.Time // Config.YieldEvery
	edges          *phaseEdges
}

// loop runs transactions until soft ends. Sleeps and reconnects follow soft;
// a transaction in flight runs on hard, which ends only after the drain grace.
func (w *worker) loop(soft, hard context.Context) {
	defer func() {
		if w.term != nil {
			w.term.Close()
		}
		if w.conn != nil {
			w.conn.Close()
		}
	}()
	waiter, _ := w.term.(workload.Waiter)
	if w.pacer != nil && w.pacer.poisson {
		w.clock = w.pacer.clock(w.id, w.n)
	}
	for soft.Err() == nil {
		op := w.term.Next()
		var start time.Time
		late := false
		if w.pacer != nil {
			var intended time.Time
			if w.clock != nil {
				intended = w.clock.next()
			} else {
				intended = w.pacer.next()
			}
			if !sleepUntil(soft, intended) {
				return
			}
			// No coordinated omission: latency from the intended start,
			// or from the actual one when the wait ended early
			// (sleepUntil, TimerEarly).
			now := time.Now()
			start = intended
			if now.Before(intended) {
				start = now
			}
			late = now.Sub(intended) > LateAfter
		} else {
			if w.cfg.Wait && waiter != nil {
				if !sleepCtx(soft, waiter.Keying(op)) {
					return
				}
			}
			start = time.Now()
		}
		phase := w.reg.Phase()
		if phase == metrics.Done || soft.Err() != nil {
			return
		}
		if phase == metrics.Measure && !w.budget.take() {
			return
		}
		var began time.Time // actual start, for the open-loop service time
		if w.pacer != nil {
			began = time.Now()
		}
		outcome, err := w.attempt(hard, phase, op)
		if hard.Err() != nil && err != nil {
			// Aborted after the grace period: not a database error, and
			// no figure of the window's; counted, so the run says so.
			if phase == metrics.Measure {
				w.abandoned.Add(1)
			}
			return
		}
		lat := time.Since(start)
		if w.pacer != nil && phase == metrics.Measure {
			w.open.started.Add(1)
			w.open.serviceUS.Add(time.Since(began).Microseconds())
			if late {
				w.open.late.Add(1)
			}
		}
		class := target.ClassNone
		if err != nil {
			class = target.Classify(err)
			outcome = metrics.Failed
			w.samples.add(phase, op, class, err)
			if phase == metrics.Warmup {
				w.warmupErrors.Add(1)
			}
			if class.Fatal() {
				w.stop.trigger(err)
			}
		}
		w.rec.RecordIn(phase, op, lat, outcome, class, w.term.Extras())
		now := start.Add(lat)
		w.edges.passed(now)
		if w.cfg.YieldEvery > 0 && now.Sub(w.lastYield) >= w.cfg.YieldEvery {
			w.yield()
			w.lastYield = now
		}
		if class == target.ClassLostConnection {
			if !w.reconnect(soft, phase) {
				return
			}
			waiter, _ = w.term.(workload.Waiter)
			continue
		}
		if w.cfg.Wait && waiter != nil && w.pacer == nil {
			if !sleepCtx(soft, waiter.Think(op)) {
				return
			}
		}
	}
}

// attempt runs op, re-running it after retryable errors up to MaxRetries.
// Each re-run attempt is counted as a retry of its error's class and its
// message kept among the error samples, as a failed transaction's is, both
// in phase, the one the transaction started in.
func (w *worker) attempt(ctx context.Context, phase metrics.Phase, op int) (metrics.Outcome, error) {
	for try := 0; ; try++ {
		out, err := w.term.Exec(ctx, op)
		if err == nil || try >= w.cfg.MaxRetries || ctx.Err() != nil {
			return out, err
		}
		class := target.Classify(err)
		if !class.Retryable() {
			return out, err
		}
		w.rec.AddRetryIn(phase, op, class)
		w.samples.add(phase, op, class, err)
	}
}

// reconnect replaces the session lost in phase, backing off from 100 ms to
// 5 s; it gives up only when ctx ends.
func (w *worker) reconnect(ctx context.Context, phase metrics.Phase) bool {
	w.term.Close()
	w.conn.Close()
	w.term, w.conn = nil, nil
	backoff := 100 * time.Millisecond
	for {
		if !sleepCtx(ctx, backoff) {
			return false
		}
		c, err := w.dialer.Connect(ctx)
		if err == nil {
			t, terr := w.wl.NewTerminal(ctx, w.id, w.n, c)
			if terr == nil {
				w.conn, w.term = c, t
				w.reconnects[phaseSlot(phase)].Add(1)
				return true
			}
			c.Close()
			err = terr
		}
		if errors.Is(err, context.Canceled) || ctx.Err() != nil {
			return false
		}
		w.reconnectFails.Add(1)
		if backoff < 5*time.Second {
			backoff *= 2
		}
	}
}
