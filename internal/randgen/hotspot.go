package randgen

// Hotspot is YCSB's HotspotIntegerGenerator (reference §3.5 "hotspot"): a
// fraction OpnFraction of draws falls uniformly in the first DataFraction of
// [lower, upper] (the hot set), the rest uniformly in the remainder. It is
// immutable and safe to share.
type Hotspot struct {
	lower, hot, cold int64
	opn              float64
}

// NewHotspot returns the generator; dataFraction and opnFraction are in [0, 1].
func NewHotspot(lower, upper int64, dataFraction, opnFraction float64) *Hotspot {
	interval := upper - lower + 1
	hot := int64(float64(interval) * dataFraction)
	return &Hotspot{lower: lower, hot: hot, cold: interval - hot, opn: opnFraction}
}

// Next draws one value.
func (h *Hotspot) Next(r *Rand) int64 {
	if (r.Float64() < h.opn && h.hot > 0) || h.cold <= 0 {
		return h.lower + r.Int64N(h.hot)
	}
	return h.lower + h.hot + r.Int64N(h.cold)
}
