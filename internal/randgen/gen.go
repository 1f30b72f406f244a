package randgen

// IntGen draws integers from a distribution using the caller's Rand. The
// generators in this package are immutable after construction (safe to share
// between terminals) unless their doc comment says otherwise; the Rand
// carries all per-goroutine state.
type IntGen interface {
	Next(r *Rand) int64
}

// Uniform is YCSB's UniformLongGenerator: a uniform integer in [Min, Max]
// (reference §3.5 "uniform").
type Uniform struct{ Min, Max int64 }

// Next returns a uniform value in [u.Min, u.Max].
func (u Uniform) Next(r *Rand) int64 { return u.Min + r.Int64N(u.Max-u.Min+1) }
