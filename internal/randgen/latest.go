package randgen

// SkewedLatest is YCSB's SkewedLatestGenerator (reference §3.5 "latest"):
// with max = the last acknowledged insert, it returns max − zipfian(max), so
// the newest records are the most popular. Last is read on every draw (an
// atomic load in the YCSB workload). It owns a Zipfian and is therefore used
// by one goroutine; Clone gives another goroutine its own.
type SkewedLatest struct {
	Last func() int64
	zipf *Zipfian
}

// NewSkewedLatest precomputes ζ over last() items (O(n), once).
func NewSkewedLatest(last func() int64) *SkewedLatest {
	n := last()
	if n < 1 {
		n = 1
	}
	return &SkewedLatest{Last: last, zipf: NewZipfian(0, n-1, ZipfianConstant)}
}

// Clone returns a copy with its own zipfian state.
func (s *SkewedLatest) Clone() *SkewedLatest {
	return &SkewedLatest{Last: s.Last, zipf: s.zipf.Clone()}
}

// Next returns max − zipf(max) with max = Last().
func (s *SkewedLatest) Next(r *Rand) int64 {
	max := s.Last()
	if max < 1 {
		return max
	}
	return max - s.zipf.NextN(r, max)
}
