package results

import (
	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"benchpress/internal/errclass"
	"benchpress/internal/metrics"
)

// LatencyOf returns the percentiles of h in milliseconds (zero for nil/empty).
func LatencyOf(h *hdr.Histogram) Latency {
	if h == nil || h.TotalCount() == 0 {
		return Latency{}
	}
	ms := func(us int64) float64 { return float64(us) / 1000 }
	return Latency{
		Min:   ms(h.Min()),
		Avg:   h.Mean() / 1000,
		P50:   ms(h.ValueAtQuantile(50)),
		P90:   ms(h.ValueAtQuantile(90)),
		P95:   ms(h.ValueAtQuantile(95)),
		P99:   ms(h.ValueAtQuantile(99)),
		P999:  ms(h.ValueAtQuantile(99.9)),
		P9999: ms(h.ValueAtQuantile(99.99)),
		Max:   ms(h.Max()),
	}
}

// OpsFrom converts a cumulative snapshot into per-op results over seconds.
func OpsFrom(s *metrics.Snapshot, names []string, seconds float64) []Op {
	ops := make([]Op, len(names))
	for i, name := range names {
		c := s.Counts[i]
		o := Op{Name: name, Count: c.OK + c.Rollback, Rollbacks: c.Rollback, Errors: c.Errors(), Retries: c.Retries}
		if seconds > 0 {
			o.PerSec = float64(o.Count) / seconds
			o.PerMin = o.PerSec * 60
		}
		o.Latency = LatencyOf(s.OKHist[i])
		if h := s.ErrHist[i]; h != nil && h.TotalCount() > 0 {
			l := LatencyOf(h)
			o.ErrLatency = &l
		}
		for cl := errclass.Class(1); cl < errclass.Num; cl++ {
			if n := c.Errs[cl]; n > 0 {
				if o.ErrClasses == nil {
					o.ErrClasses = map[string]int64{}
				}
				o.ErrClasses[cl.String()] = n
			}
			if n := c.RetryErrs[cl]; n > 0 {
				if o.RetryClasses == nil {
					o.RetryClasses = map[string]int64{}
				}
				o.RetryClasses[cl.String()] = n
			}
		}
		ops[i] = o
	}
	return ops
}

// MergedOK merges every op's success histogram (nil when there is none).
func MergedOK(s *metrics.Snapshot) *hdr.Histogram {
	var all *hdr.Histogram
	for _, h := range s.OKHist {
		if h == nil || h.TotalCount() == 0 {
			continue
		}
		if all == nil {
			all = metrics.NewHistogram()
		}
		all.Merge(h)
	}
	return all
}

// EncodeHistograms encodes each non-empty histogram of s (V2 compressed, base64).
func EncodeHistograms(s *metrics.Snapshot, names []string) map[string]string {
	out := map[string]string{}
	put := func(key string, h *hdr.Histogram) {
		if h == nil || h.TotalCount() == 0 {
			return
		}
		if b, err := h.Encode(hdr.V2CompressedEncodingCookieBase); err == nil {
			out[key] = string(b)
		}
	}
	for i, n := range names {
		put(n, s.OKHist[i])
		put(n+".err", s.ErrHist[i])
	}
	return out
}

// DecodeHistogram decodes one entry of Run.Histograms.
func DecodeHistogram(enc string) (*hdr.Histogram, error) {
	return hdr.Decode([]byte(enc))
}
