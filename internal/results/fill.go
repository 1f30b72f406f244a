package results

import (
	"fmt"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"benchpress/internal/errclass"
	"benchpress/internal/metrics"
)

// Fill sets the generic figures of r from the measurement window's snapshot
// cum over secs seconds: ops, histograms, errors and retries by class and the
// workload-independent summary (transactions, errors, retries, TPS,
// tpmTOTAL, success rate, avg/p95/p99 over all successful ops). Workload
// figures (tpmC, QPS, audits) are left to the workload's Summarizer.
func Fill(r *Run, cum *metrics.Snapshot, ops []string, secs float64) {
	r.Ops = OpsFrom(cum, ops, secs)
	r.Histograms = EncodeHistograms(cum, ops)
	r.ErrorsByClass = map[string]int64{}
	r.RetriesByClass = nil
	var okN, errN, retries int64
	for i := range ops {
		c := cum.Counts[i]
		okN += c.OK + c.Rollback
		errN += c.Errors()
		retries += c.Retries
		for cl := errclass.Class(1); cl < errclass.Num; cl++ {
			if c.Errs[cl] > 0 {
				r.ErrorsByClass[cl.String()] += c.Errs[cl]
			}
			if c.RetryErrs[cl] > 0 {
				if r.RetriesByClass == nil {
					r.RetriesByClass = map[string]int64{}
				}
				r.RetriesByClass[cl.String()] += c.RetryErrs[cl]
			}
		}
	}
	s := &r.Summary
	*s = Summary{DurationS: secs, Transactions: okN, Errors: errN, Retries: retries}
	if secs > 0 {
		s.TPS = float64(okN) / secs
		s.TpmTotal = s.TPS * 60
	}
	if okN+errN > 0 {
		s.SuccessRate = 100 * float64(okN) / float64(okN+errN)
	}
	if all := MergedOK(cum); all != nil {
		l := LatencyOf(all)
		s.AvgMS, s.P95MS, s.P99MS = l.Avg, l.P95, l.P99
	}
}

// Snapshot rebuilds the measurement window's snapshot from a saved result:
// counts from ops, histograms decoded, workload counters from the
// partition record (extraNames order; zero when absent). It is the inverse
// of Fill, exact because histograms are saved losslessly.
func Snapshot(r *Run, extraNames []string) (*metrics.Snapshot, error) {
	s := metrics.NewSnapshot(len(r.Ops), len(extraNames))
	for i, o := range r.Ops {
		c := &s.Counts[i]
		c.OK, c.Rollback, c.Retries = o.Count-o.Rollbacks, o.Rollbacks, o.Retries
		var classified int64
		for cl := errclass.Class(1); cl < errclass.Num; cl++ {
			c.Errs[cl] = o.ErrClasses[cl.String()]
			classified += c.Errs[cl]
		}
		c.Errs[errclass.Other] += o.Errors - classified // errors saved without a class
		classified = 0
		for cl := errclass.Class(1); cl < errclass.Num; cl++ {
			c.RetryErrs[cl] = o.RetryClasses[cl.String()]
			classified += c.RetryErrs[cl]
		}
		c.RetryErrs[errclass.None] = o.Retries - classified // retries saved without a class (older files)
		for _, h := range []struct {
			key string
			dst **hdr.Histogram
		}{{o.Name, &s.OKHist[i]}, {o.Name + ".err", &s.ErrHist[i]}} {
			enc, ok := r.Histograms[h.key]
			if !ok {
				continue
			}
			dec, err := DecodeHistogram(enc)
			if err != nil {
				return nil, fmt.Errorf("histogram %q: %v", h.key, err)
			}
			*h.dst = metrics.NewHistogram()
			(*h.dst).Merge(dec)
		}
	}
	if p := r.Partition; p != nil {
		for i, name := range extraNames {
			for j, n := range p.ExtraNames {
				if n == name && j < len(p.Extras) {
					s.Extra[i] = p.Extras[j]
				}
			}
		}
	}
	return s, nil
}
