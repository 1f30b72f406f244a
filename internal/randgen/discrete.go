package randgen

// Discrete is YCSB's DiscreteGenerator (reference §3.5 "operation choice"): a
// weighted pick among values 0..len(weights)-1. It is immutable.
type Discrete struct {
	cum  []float64 // cumulative normalised weights
	last int       // last index with a positive weight
}

// NewDiscrete builds the generator; weights must be >= 0 with a positive sum.
func NewDiscrete(weights []float64) *Discrete {
	var sum float64
	for _, w := range weights {
		sum += w
	}
	d := &Discrete{cum: make([]float64, len(weights))}
	var acc float64
	for i, w := range weights {
		acc += w / sum
		d.cum[i] = acc
		if w > 0 {
			d.last = i
		}
	}
	return d
}

// Next returns the index of the chosen value.
func (d *Discrete) Next(r *Rand) int {
	u := r.Float64()
	for i, c := range d.cum {
		if u < c {
			return i
		}
	}
	return d.last // rounding: u >= the normalised sum
}
