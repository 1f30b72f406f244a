package metrics

import (
	"benchpress/internal/errclass"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Phase of a run. Samples completing in Warmup feed the live series only;
// samples completing in Measure also feed the cumulative result; samples in
// Done are dropped.
type Phase int32

const (
	Warmup Phase = iota
	Measure
	Done
)

// Outcome of one transaction attempt as reported by a workload.
type Outcome uint8

const (
	OK       Outcome = iota // committed
	Rollback                // a rollback the workload defines as success (TPC-C New-Order 1 %)
	Failed                  // an error; its class is recorded
)

// OpCounts are the counters kept per operation type.
type OpCounts struct {
	OK, Rollback, Retries int64
	Errs                  [errclass.Num]int64
}

// Errors is the total number of failed attempts.
func (c *OpCounts) Errors() int64 {
	var n int64
	for _, e := range c.Errs {
		n += e
	}
	return n
}

// Snapshot holds histograms and counters per operation type: one shard's
// phase, one interval, or the cumulative measurement window.
type Snapshot struct {
	OKHist  []*hdr.Histogram // per op, allocated lazily
	ErrHist []*hdr.Histogram // per op, allocated lazily
	Counts  []OpCounts
	Extra   []int64 // workload-defined counters (e.g. queries by kind)
}

func newSnapshot(nOps, nExtra int) *Snapshot {
	return &Snapshot{
		OKHist:  make([]*hdr.Histogram, nOps),
		ErrHist: make([]*hdr.Histogram, nOps),
		Counts:  make([]OpCounts, nOps),
		Extra:   make([]int64, nExtra),
	}
}

func (d *Snapshot) reset() {
	for i := range d.OKHist {
		if d.OKHist[i] != nil {
			d.OKHist[i].Reset()
		}
		if d.ErrHist[i] != nil {
			d.ErrHist[i].Reset()
		}
		d.Counts[i] = OpCounts{}
	}
	for i := range d.Extra {
		d.Extra[i] = 0
	}
}

// Recorder is a shard of the registry. Many workers may share one Recorder;
// its mutex is never shared by all workers unless there is a single shard.
type Recorder struct {
	mu   sync.Mutex
	reg  *Registry
	warm *Snapshot
	meas *Snapshot
	_    [64]byte // keep shards' hot fields on separate cache lines
}

// Registry owns the shards and the cumulative (measurement window) result.
type Registry struct {
	ops    []string
	extras []string
	phase  atomic.Int32
	shards []*Recorder

	// Owned by the ticker goroutine (Tick / Final callers).
	cum *Snapshot
	iv  *Snapshot // reused interval snapshot
}

// NewRegistry creates a registry for the named operation types and extra
// counters, sized for the given number of workers.
func NewRegistry(ops, extras []string, workers int) *Registry {
	n := 4 * runtime.GOMAXPROCS(0)
	if workers < n {
		n = workers
	}
	if n < 1 {
		n = 1
	}
	r := &Registry{ops: ops, extras: extras, cum: newSnapshot(len(ops), len(extras))}
	for i := 0; i < n; i++ {
		r.shards = append(r.shards, &Recorder{reg: r, warm: newSnapshot(len(ops), len(extras)), meas: newSnapshot(len(ops), len(extras))})
	}
	return r
}

// Ops returns the operation names, indexed by op id.
func (r *Registry) Ops() []string { return r.ops }

// Extras returns the extra counter names.
func (r *Registry) Extras() []string { return r.extras }

// SetPhase switches the phase; samples completing afterwards are tagged with it.
func (r *Registry) SetPhase(p Phase) { r.phase.Store(int32(p)) }

// Phase returns the current phase.
func (r *Registry) Phase() Phase { return Phase(r.phase.Load()) }

// Recorder returns the shard for worker i.
func (r *Registry) Recorder(worker int) *Recorder { return r.shards[worker%len(r.shards)] }

func (rec *Recorder) data() *Snapshot { return rec.dataFor(rec.reg.Phase()) }

func (rec *Recorder) dataFor(p Phase) *Snapshot {
	switch p {
	case Warmup:
		return rec.warm
	case Measure:
		return rec.meas
	}
	return nil
}

// Record adds one completed attempt of op with its latency and outcome; class
// is the error class when outcome is Failed.
//
// extras, when non-nil, holds workload counter deltas (indexed like the
// registry's extras); they are added and the slice is zeroed, all under the
// one shard lock this call takes.
func (rec *Recorder) Record(op int, latency time.Duration, outcome Outcome, class errclass.Class, extras []int64) {
	rec.RecordIn(rec.reg.Phase(), op, latency, outcome, class, extras)
}

// RecordIn is Record with the phase given by the caller: the runner passes
// the phase in which the transaction started, so a transaction started inside
// the measurement window is counted even if it completes after the window
// closed (the runner drains in-flight work before the final tick). This keeps
// the tool's counts equal to what the database committed.
func (rec *Recorder) RecordIn(phase Phase, op int, latency time.Duration, outcome Outcome, class errclass.Class, extras []int64) {
	rec.mu.Lock()
	d := rec.dataFor(phase)
	if d == nil {
		clear(extras)
		rec.mu.Unlock()
		return
	}
	for i, v := range extras {
		d.Extra[i] += v
		extras[i] = 0
	}
	c := &d.Counts[op]
	var h **hdr.Histogram
	switch outcome {
	case OK:
		c.OK++
		h = &d.OKHist[op]
	case Rollback:
		c.Rollback++
		h = &d.OKHist[op]
	default:
		c.Errs[class]++
		h = &d.ErrHist[op]
	}
	if *h == nil {
		*h = NewHistogram()
	}
	recordUS(*h, latency)
	rec.mu.Unlock()
}

// AddRetry counts one retry of op (a retryable error that was re-run).
func (rec *Recorder) AddRetry(op int) {
	rec.mu.Lock()
	if d := rec.data(); d != nil {
		d.Counts[op].Retries++
	}
	rec.mu.Unlock()
}

// AddExtra adds n to the extra counter idx.
func (rec *Recorder) AddExtra(idx int, n int64) {
	rec.mu.Lock()
	if d := rec.data(); d != nil {
		d.Extra[idx] += n
	}
	rec.mu.Unlock()
}

// Cumulative returns the measurement-window totals merged so far. It is owned
// by the goroutine that calls Tick.
func (r *Registry) Cumulative() *Snapshot { return r.cum }

// Tick drains every shard into one interval snapshot (warm-up and measured
// samples together, for live display and the per-interval series) and adds
// the measured part to the cumulative result. Call it from one goroutine.
// The returned snapshot is reused: it is valid until the next Tick.
func (r *Registry) Tick() *Snapshot {
	if r.iv == nil {
		r.iv = newSnapshot(len(r.ops), len(r.extras))
	}
	iv := r.iv
	iv.reset()
	for _, s := range r.shards {
		s.mu.Lock()
		mergeInto(iv, s.warm)
		mergeInto(iv, s.meas)
		mergeInto(r.cum, s.meas)
		s.warm.reset()
		s.meas.reset()
		s.mu.Unlock()
	}
	return iv
}

func mergeInto(dst, src *Snapshot) {
	for i := range src.OKHist {
		mergeHist(&dst.OKHist[i], src.OKHist[i])
		mergeHist(&dst.ErrHist[i], src.ErrHist[i])
		d, s := &dst.Counts[i], &src.Counts[i]
		d.OK += s.OK
		d.Rollback += s.Rollback
		d.Retries += s.Retries
		for c := range s.Errs {
			d.Errs[c] += s.Errs[c]
		}
	}
	for i := range src.Extra {
		dst.Extra[i] += src.Extra[i]
	}
}

func mergeHist(dst **hdr.Histogram, src *hdr.Histogram) {
	if src == nil || src.TotalCount() == 0 {
		return
	}
	if *dst == nil {
		*dst = NewHistogram()
	}
	(*dst).Merge(src)
}

// NewSnapshot returns an empty snapshot for nOps operation types and nExtra
// extra counters.
func NewSnapshot(nOps, nExtra int) *Snapshot { return newSnapshot(nOps, nExtra) }

// Add merges src into s.
func (s *Snapshot) Add(src *Snapshot) { mergeInto(s, src) }

// Reset empties s, keeping its histograms allocated.
func (s *Snapshot) Reset() { s.reset() }

// Merge returns a new snapshot holding the sum of snaps.
func Merge(nOps, nExtra int, snaps ...*Snapshot) *Snapshot {
	out := newSnapshot(nOps, nExtra)
	for _, s := range snaps {
		if s != nil {
			mergeInto(out, s)
		}
	}
	return out
}
