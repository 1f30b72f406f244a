package metrics

import (
	"sync"
	"time"

	"benchpress/internal/errclass"
)

// A sample is one recorded event packed into 8 bytes:
//
//	bits  0-31  latency in microseconds (clamped to 1 us .. 1 h < 2^32)
//	bits 32-47  operation index
//	bits 48-49  kind: an Outcome (OK, Rollback, Failed) or kindRetry
//	bits 50-57  error class (Failed and retries)
//	bit  63     recorded in the Measure phase (else Warmup)
type sample uint64

const (
	kindRetry   = 3
	sampleMeas  = sample(1) << 63
	maxOps      = 1 << 16
	opShift     = 32
	kindShift   = 48
	classShift  = 50
	latencyMask = 1<<32 - 1
)

func packSample(meas bool, op int, kind uint8, class errclass.Class, us int64) sample {
	s := sample(us) | sample(op)<<opShift | sample(kind)<<kindShift | sample(class)<<classShift
	if meas {
		s |= sampleMeas
	}
	return s
}

func (s sample) op() int               { return int(s>>opShift) & (maxOps - 1) }
func (s sample) kind() uint8           { return uint8(s>>kindShift) & 3 }
func (s sample) class() errclass.Class { return errclass.Class(s>>classShift) & 0xff }
func (s sample) us() int64             { return int64(s & latencyMask) }
func (s sample) measured() bool        { return s&sampleMeas != 0 }

// buffer is what one recorder collected since the last tick.
type buffer struct {
	samples []sample
	extra   [2][]int64 // workload counters: [0] warm-up, [1] measure
}

func newBuffer(nExtra int) *buffer {
	return &buffer{extra: [2][]int64{make([]int64, nExtra), make([]int64, nExtra)}}
}

// reset empties b, keeping its capacity.
func (b *buffer) reset() {
	b.samples = b.samples[:0]
	clear(b.extra[0])
	clear(b.extra[1])
}

// Recorder is one worker's recording point. Its mutex is taken by the worker
// on every record and by the ticker once per tick (to swap the buffer), so
// it is uncontended in practice. Several workers may share a Recorder (it
// stays correct, only the lock is then shared).
type Recorder struct {
	mu    sync.Mutex
	cur   *buffer // guarded by mu
	spare *buffer // owned by the ticker: the next cur, empty
	reg   *Registry
	_     [64]byte // keep recorders' hot fields on separate cache lines
}

// Record adds one completed attempt of op with its latency and outcome; class
// is the error class when outcome is Failed. It is tagged with the current
// phase.
//
// extras, when non-nil, holds workload counter deltas (indexed like the
// registry's extras); they are added and the slice is zeroed, under the one
// lock this call takes.
func (rec *Recorder) Record(op int, latency time.Duration, outcome Outcome, class errclass.Class, extras []int64) {
	rec.RecordIn(rec.reg.Phase(), op, latency, outcome, class, extras)
}

// RecordIn is Record with the phase given by the caller: the runner passes
// the phase in which the transaction started, so a transaction started inside
// the measurement window is counted even if it completes after the window
// closed (the runner drains in-flight work before the final tick). This keeps
// the tool's counts equal to what the database committed. Samples in the
// Done phase are dropped (and extras zeroed). It does not allocate once the
// buffers have grown to a tick's worth of samples.
func (rec *Recorder) RecordIn(phase Phase, op int, latency time.Duration, outcome Outcome, class errclass.Class, extras []int64) {
	if phase != Warmup && phase != Measure {
		clear(extras)
		return
	}
	if outcome != Failed {
		class = errclass.None
	}
	meas := phase == Measure
	s := packSample(meas, op, uint8(outcome), class, clampUS(latency))
	pi := 0
	if meas {
		pi = 1
	}
	rec.mu.Lock()
	b := rec.cur
	b.samples = append(b.samples, s)
	if len(extras) > 0 {
		ex := b.extra[pi]
		for i, v := range extras {
			ex[i] += v
			extras[i] = 0
		}
	}
	rec.mu.Unlock()
}

// AddRetry counts one retry of op in the current phase: an attempt that
// failed with an error of class (a retryable one: deadlock, serialization,
// lock timeout) and was re-run. It is counted in OpCounts.Retries and
// OpCounts.RetryErrs[class], not in Errs (the transaction's outcome is
// recorded once, by Record).
func (rec *Recorder) AddRetry(op int, class errclass.Class) {
	rec.AddRetryIn(rec.reg.Phase(), op, class)
}

// AddRetryIn is AddRetry with the phase given by the caller: the runner
// passes the phase in which the transaction started, as to RecordIn, so
// that a transaction's retries count where its outcome does (a warm-up
// transaction retried after the window opened stays out of the window).
// Retries in the Done phase are dropped. It does not allocate once the
// buffers have grown to a tick's worth of samples.
func (rec *Recorder) AddRetryIn(phase Phase, op int, class errclass.Class) {
	if phase != Warmup && phase != Measure {
		return
	}
	s := packSample(phase == Measure, op, kindRetry, class, 0)
	rec.mu.Lock()
	rec.cur.samples = append(rec.cur.samples, s)
	rec.mu.Unlock()
}

// AddExtra adds n to the extra counter idx in the current phase.
func (rec *Recorder) AddExtra(idx int, n int64) {
	pi := 0
	switch rec.reg.Phase() {
	case Warmup:
	case Measure:
		pi = 1
	default:
		return
	}
	rec.mu.Lock()
	rec.cur.extra[pi][idx] += n
	rec.mu.Unlock()
}

// swap hands the recorder an empty buffer and returns the full one. Only
// the ticker calls it; the lock is held for two pointer moves.
func (rec *Recorder) swap() *buffer {
	next := rec.spare
	rec.mu.Lock()
	full := rec.cur
	rec.cur = next
	rec.mu.Unlock()
	return full
}
