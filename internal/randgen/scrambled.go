package randgen

import "math"

// YCSB's ScrambledZipfianGenerator constants (reference §3.5): the inner
// zipfian runs over 10^10 items with the precomputed ζ(10^10, 0.99).
const (
	scrambledItemCount = 10_000_000_000
	scrambledZetaN     = 26.46902820178302
)

// ScrambledZipfian is YCSB's ScrambledZipfianGenerator over [min, max]:
// a zipfian draw over 10^10 items with θ = 0.99, hashed with FNVHash64 and
// folded into the range, so the popular items are scattered over the key
// space instead of clustered at low keynums. It is immutable and safe to
// share.
type ScrambledZipfian struct {
	min, itemCount int64
	gen            Zipfian
}

// NewScrambledZipfian returns the generator over [min, max] (inclusive).
func NewScrambledZipfian(min, max int64) *ScrambledZipfian {
	return &ScrambledZipfian{
		min: min, itemCount: max - min + 1,
		gen: *newZipfianZeta(0, scrambledItemCount, ZipfianConstant, scrambledZetaN),
	}
}

// Next returns min + fnvhash64(zipf) % itemCount (Java long arithmetic).
func (s *ScrambledZipfian) Next(r *Rand) int64 {
	z := s.gen.nextFixed(r)
	return s.min + FNVHash64(z)%s.itemCount
}

// nextFixed draws over the generator's own item count without touching ζ, so
// a shared generator is never written.
func (z *Zipfian) nextFixed(r *Rand) int64 {
	u := r.Float64()
	uz := u * z.zetaN
	if uz < 1 {
		return z.base
	}
	if uz < 1+math.Pow(0.5, z.theta) {
		return z.base + 1
	}
	return z.base + int64(float64(z.items)*math.Pow(z.eta*u-z.eta+1, z.alpha))
}
