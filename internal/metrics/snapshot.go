package metrics

import (
	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"benchpress/internal/errclass"
)

// Outcome of one transaction attempt as reported by a workload.
type Outcome uint8

const (
	OK       Outcome = iota // committed
	Rollback                // a rollback the workload defines as success (TPC-C New-Order 1 %)
	Failed                  // an error; its class is recorded
)

// OpCounts are the counters kept per operation type. Every failed attempt
// is counted once by class: in Errs when it was the transaction's outcome
// (retries exhausted, or an error that is not retried), in RetryErrs when
// the transaction was re-run after it. Retries is the sum of RetryErrs
// (RetryErrs[errclass.None] holds retries whose class is unknown: results
// written before retries were classified).
type OpCounts struct {
	OK, Rollback, Retries int64
	Errs                  [errclass.Num]int64
	RetryErrs             [errclass.Num]int64
}

// Errors is the total number of failed transactions (attempts that were
// not retried).
func (c *OpCounts) Errors() int64 {
	var n int64
	for _, e := range c.Errs {
		n += e
	}
	return n
}

// Snapshot holds histograms and counters per operation type: one interval,
// one live report, or the cumulative measurement window.
type Snapshot struct {
	OKHist  []*hdr.Histogram // per op, allocated lazily (nil: no sample)
	ErrHist []*hdr.Histogram // per op, allocated lazily (nil: no sample)
	Counts  []OpCounts
	Extra   []int64 // workload-defined counters (e.g. queries by kind)
}

// NewSnapshot returns an empty snapshot for nOps operation types and nExtra
// extra counters.
func NewSnapshot(nOps, nExtra int) *Snapshot {
	return &Snapshot{
		OKHist:  make([]*hdr.Histogram, nOps),
		ErrHist: make([]*hdr.Histogram, nOps),
		Counts:  make([]OpCounts, nOps),
		Extra:   make([]int64, nExtra),
	}
}

// Reset empties s, keeping its histograms allocated.
func (s *Snapshot) Reset() {
	for i := range s.OKHist {
		if s.OKHist[i] != nil {
			s.OKHist[i].Reset()
		}
		if s.ErrHist[i] != nil {
			s.ErrHist[i].Reset()
		}
		s.Counts[i] = OpCounts{}
	}
	clear(s.Extra)
}

// Add merges src into s.
func (s *Snapshot) Add(src *Snapshot) {
	for i := range src.OKHist {
		mergeHist(&s.OKHist[i], src.OKHist[i])
		mergeHist(&s.ErrHist[i], src.ErrHist[i])
		d, c := &s.Counts[i], &src.Counts[i]
		d.OK += c.OK
		d.Rollback += c.Rollback
		d.Retries += c.Retries
		for k := range c.Errs {
			d.Errs[k] += c.Errs[k]
			d.RetryErrs[k] += c.RetryErrs[k]
		}
	}
	for i := range src.Extra {
		s.Extra[i] += src.Extra[i]
	}
}

// Merge returns a new snapshot holding the sum of snaps.
func Merge(nOps, nExtra int, snaps ...*Snapshot) *Snapshot {
	out := NewSnapshot(nOps, nExtra)
	for _, s := range snaps {
		if s != nil {
			out.Add(s)
		}
	}
	return out
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

// hist returns the histogram in *h, allocating it on first use.
func hist(h **hdr.Histogram) *hdr.Histogram {
	if *h == nil {
		*h = NewHistogram()
	}
	return *h
}
