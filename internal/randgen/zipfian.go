package randgen

import "math"

// ZipfianConstant is YCSB's default zipfian constant θ (reference §3.5).
const ZipfianConstant = 0.99

// Zipfian is YCSB's ZipfianGenerator (Gray et al., "Quickly Generating
// Billion-Record Synthetic Databases", SIGMOD'94; reference §3.5): item
// base+0 is the most popular, base+1 the next, and so on.
//
// ζ(n) is precomputed once; NextN grows it incrementally when asked for a
// larger item count (SkewedLatest does that as inserts are acknowledged).
// A Zipfian is therefore mutable: give each goroutine its own copy (Clone).
type Zipfian struct {
	base, items  int64
	theta, alpha float64
	zeta2, zetaN float64
	eta          float64
	countForZeta int64
}

// NewZipfian returns a generator over [min, max] with constant theta,
// computing ζ(max−min+1, θ) (O(n); done once per workload).
func NewZipfian(min, max int64, theta float64) *Zipfian {
	n := max - min + 1
	return newZipfianZeta(min, n, theta, Zeta(0, n, theta, 0))
}

func newZipfianZeta(base, items int64, theta, zetaN float64) *Zipfian {
	z := &Zipfian{
		base: base, items: items, theta: theta,
		alpha: 1 / (1 - theta), zeta2: Zeta(0, 2, theta, 0),
		zetaN: zetaN, countForZeta: items,
	}
	z.eta = z.etaFor(items)
	return z
}

func (z *Zipfian) etaFor(n int64) float64 {
	return (1 - math.Pow(2/float64(n), 1-z.theta)) / (1 - z.zeta2/z.zetaN)
}

// Zeta returns Σ_{i=st+1..n} 1/i^θ added to initial: ζ(n) computed
// incrementally from ζ(st) = initial.
func Zeta(st, n int64, theta, initial float64) float64 {
	sum := initial
	for i := st; i < n; i++ {
		sum += 1 / math.Pow(float64(i+1), theta)
	}
	return sum
}

// Clone returns an independent copy for another goroutine.
func (z *Zipfian) Clone() *Zipfian { c := *z; return &c }

// Next draws from the generator's own item count.
func (z *Zipfian) Next(r *Rand) int64 { return z.NextN(r, z.items) }

// NextN draws over itemCount items starting at base, first growing ζ when
// itemCount exceeds the count it was computed for (YCSB nextLong). A smaller
// itemCount reuses the larger ζ, as YCSB does by default
// (allowitemcountdecrease=false).
func (z *Zipfian) NextN(r *Rand, itemCount int64) int64 {
	if itemCount > z.countForZeta {
		z.zetaN = Zeta(z.countForZeta, itemCount, z.theta, z.zetaN)
		z.countForZeta = itemCount
		z.eta = z.etaFor(itemCount)
	}
	u := r.Float64()
	uz := u * z.zetaN
	if uz < 1 {
		return z.base
	}
	if uz < 1+math.Pow(0.5, z.theta) {
		return z.base + 1
	}
	return z.base + int64(float64(itemCount)*math.Pow(z.eta*u-z.eta+1, z.alpha))
}
