package metrics

import (
	"fmt"
	"sync/atomic"
)

// Phase of a run. A sample belongs to the phase its transaction started in
// (the runner records with RecordIn): those of Warmup feed the live series
// only; those of Measure also feed the cumulative result, even when they
// complete in the drain after the window; those of Done are dropped.
type Phase int32

const (
	Warmup Phase = iota
	Measure
	Done
)

// Registry owns the recorders and the cumulative (measurement window) result.
type Registry struct {
	ops    []string
	extras []string
	phase  atomic.Int32
	recs   []*Recorder

	// Owned by the ticker goroutine (Tick / Cumulative callers).
	cum *Snapshot
	iv  *Snapshot // reused interval snapshot
	// done counts each recorder's measured attempts (successes, spec
	// rollbacks and failures; not retries): the window's transactions
	// per terminal.
	done []int64
	// failed is the part of done that failed (PerRecorderFailed).
	failed []int64
	// tickDone is each recorder's measured attempts in the last Tick;
	// idle and longestIdle are its current and longest stretch of the
	// measurement window without one, in seconds (Idle).
	tickDone          []int64
	idle, longestIdle []float64
}

// NewRegistry creates a registry for the named operation types and extra
// counters with one recorder per worker (at least one). Its footprint is a
// few histograms per operation (interval and cumulative) plus, per worker,
// two sample buffers sized by what the worker records in a tick.
func NewRegistry(ops, extras []string, workers int) *Registry {
	if len(ops) > maxOps {
		panic(fmt.Sprintf("metrics: %d operation types, at most %d", len(ops), maxOps))
	}
	n := max(workers, 1)
	r := &Registry{
		ops: ops, extras: extras,
		recs:     make([]*Recorder, n),
		done:     make([]int64, n),
		failed:   make([]int64, n),
		tickDone: make([]int64, n), idle: make([]float64, n), longestIdle: make([]float64, n),
		cum: NewSnapshot(len(ops), len(extras)),
		iv:  NewSnapshot(len(ops), len(extras)),
	}
	for i := range r.recs {
		r.recs[i] = &Recorder{reg: r, cur: newBuffer(len(extras)), spare: newBuffer(len(extras))}
	}
	return r
}

// Ops returns the operation names, indexed by op id.
func (r *Registry) Ops() []string { return r.ops }

// Extras returns the extra counter names.
func (r *Registry) Extras() []string { return r.extras }

// SetPhase switches the phase; samples recorded afterwards are tagged with it.
func (r *Registry) SetPhase(p Phase) { r.phase.Store(int32(p)) }

// Phase returns the current phase.
func (r *Registry) Phase() Phase { return Phase(r.phase.Load()) }

// Recorder returns worker i's recorder (workers beyond the count given to
// NewRegistry share recorders).
func (r *Registry) Recorder(worker int) *Recorder { return r.recs[worker%len(r.recs)] }

// Cumulative returns the measurement-window totals merged so far. It is owned
// by the goroutine that calls Tick.
func (r *Registry) Cumulative() *Snapshot { return r.cum }

// Tick takes every recorder's buffer (a pointer swap under the recorder's
// lock) and folds it, outside the lock, into one interval snapshot (warm-up
// and measured samples together, for live display and the per-interval
// series) and the measured part into the cumulative result. Call it from
// one goroutine. The returned snapshot is reused: it is valid until the next
// Tick.
func (r *Registry) Tick() *Snapshot {
	iv := r.iv
	iv.Reset()
	for i, rec := range r.recs {
		b := rec.swap()
		n, f := r.fold(iv, b)
		r.done[i] += n
		r.failed[i] += f
		r.tickDone[i] = n
		b.reset()
		rec.spare = b
	}
	return iv
}

// fold adds b's samples to iv, and the measured ones to the cumulative
// result; it returns how many measured attempts (not retries) b held and
// how many of them failed.
func (r *Registry) fold(iv *Snapshot, b *buffer) (attempts, failed int64) {
	for _, s := range b.samples {
		add(iv, s)
		if s.measured() {
			add(r.cum, s)
			switch s.kind() {
			case kindRetry:
			case uint8(Failed):
				attempts++
				failed++
			default:
				attempts++
			}
		}
	}
	for i, v := range b.extra[0] {
		iv.Extra[i] += v
	}
	for i, v := range b.extra[1] {
		iv.Extra[i] += v
		r.cum.Extra[i] += v
	}
	return attempts, failed
}

// PerRecorder returns a copy of each recorder's measured attempts so far
// (successes, spec rollbacks and failures; one recorder per worker as
// created): how the window's transactions spread over the terminals. Call
// it from the goroutine that calls Tick.
func (r *Registry) PerRecorder() []int64 { return append([]int64(nil), r.done...) }

// PerRecorderFailed returns a copy of each recorder's measured attempts
// that failed (the part of PerRecorder that is not an event). Call it from
// the goroutine that calls Tick.
func (r *Registry) PerRecorderFailed() []int64 { return append([]int64(nil), r.failed...) }

// Idle accounts the last Tick as dt seconds of the measurement window: a
// recorder whose last Tick folded no measured attempt has its idle stretch
// lengthened by dt (and its longest stretch raised to it), the others'
// stretch ends. Call it after Tick, from the same goroutine, only for
// ticks inside the window (not for warm-up ticks, nor for the drain after
// the window closed, whose completions count in the window but whose
// length does not). Per tick and recorder, never per sample.
func (r *Registry) Idle(dt float64) {
	for i, n := range r.tickDone {
		if n > 0 {
			r.idle[i] = 0
			continue
		}
		r.idle[i] += dt
		r.longestIdle[i] = max(r.longestIdle[i], r.idle[i])
	}
}

// LongestIdle returns a copy of each recorder's longest stretch of the
// measurement window, in seconds, without a measured attempt, as
// accounted by Idle (whole ticks: a stretch of n seconds means no
// completion for at least that long). Call it from the goroutine that
// calls Tick.
func (r *Registry) LongestIdle() []float64 { return append([]float64(nil), r.longestIdle...) }

// add counts one sample in d.
func add(d *Snapshot, s sample) {
	op := s.op()
	c := &d.Counts[op]
	switch s.kind() {
	case uint8(OK):
		c.OK++
		_ = hist(&d.OKHist[op]).RecordValue(s.us())
	case uint8(Rollback):
		c.Rollback++
		_ = hist(&d.OKHist[op]).RecordValue(s.us())
	case uint8(Failed):
		c.Errs[s.class()]++
		_ = hist(&d.ErrHist[op]).RecordValue(s.us())
	case kindRetry:
		c.Retries++
		c.RetryErrs[s.class()]++
	}
}
