package runner

import (
	"sync"
	"sync/atomic"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
	"benchpress/internal/target"
)

// SamplesPerClass is how many distinct messages are kept per error class.
const SamplesPerClass = 5

// maxSampleLen bounds a kept message (server messages can quote a whole
// statement).
const maxSampleLen = 400

// errorSamples keeps the first distinct error messages per class with
// their server code, operation and phase. The warm-up and the window have
// a table each, so errors of a warm-up (a server still starting sessions)
// cannot fill the room of the window's. Errors are the rare path: one
// mutex is enough, and once every table is full add costs one atomic load.
type errorSamples struct {
	full    atomic.Bool
	mu      sync.Mutex
	ops     []string
	samples []results.ErrorSample
	perCls  [2][target.NumClasses]int
}

func newErrorSamples(ops []string) *errorSamples { return &errorSamples{ops: ops} }

// add records err (of class cl) from op, started in phase: a new
// (phase, class, code, op, message) is kept while its class has room in
// that phase; a known one has its count raised. Phases after the window
// count as the window (a transaction in flight when it ended).
func (e *errorSamples) add(phase metrics.Phase, op int, cl target.Class, err error) {
	if e.full.Load() {
		return
	}
	ph := phaseSlot(phase)
	pname := [2]string{results.PhaseWarmup, results.PhaseWindow}[ph]
	code := target.ErrorCode(err)
	msg := err.Error()
	if len(msg) > maxSampleLen {
		msg = msg[:maxSampleLen] + "..."
	}
	name := ""
	if op >= 0 && op < len(e.ops) {
		name = e.ops[op]
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := range e.samples {
		s := &e.samples[i]
		if s.Class == cl.String() && s.Code == code && s.Op == name && s.Message == msg && s.Phase == pname {
			s.Count++
			return
		}
	}
	if e.perCls[ph][cl] >= SamplesPerClass {
		return
	}
	e.perCls[ph][cl]++
	e.samples = append(e.samples, results.ErrorSample{Class: cl.String(), Code: code, Op: name, Message: msg, Count: 1, Phase: pname})
	if len(e.samples) >= 2*SamplesPerClass*int(target.NumClasses-1) {
		e.full.Store(true)
	}
}

// phaseSlot is where a count or sample of a transaction started in phase
// goes: 0 the warm-up, 1 the window (a transaction in flight when the
// window ended included).
func phaseSlot(phase metrics.Phase) int {
	if phase == metrics.Warmup {
		return 0
	}
	return 1
}

// list returns a copy of the samples in the order first seen.
func (e *errorSamples) list() []results.ErrorSample {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]results.ErrorSample(nil), e.samples...)
}
