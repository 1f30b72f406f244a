package randgen

import (
	"fmt"
	"math"
)

// SBDist is a sysbench --rand-type distribution with its parameters
// (reference §2.6, formulas from sb_rand.c). It is immutable after
// NewSBDist and safe to share; the Rand carries the state.
type SBDist struct {
	kind     string
	iterMult float64 // 1 / rand-spec-iter
	iter     int
	pctMult  float64 // rand-spec-pct / 100
	pct2Mult float64 // rand-spec-pct / 200
	resMult  float64 // 100 / (100 - rand-spec-res)
	paretoP  float64 // ln h / ln(1-h)
	zipfExp  float64
	zipfS    float64
	zipfHX1  float64
}

// SBDistParams are sysbench's distribution options.
type SBDistParams struct {
	SpecIter   int     // --rand-spec-iter (12)
	SpecPct    int     // --rand-spec-pct (1)
	SpecRes    int     // --rand-spec-res (75)
	ParetoH    float64 // --rand-pareto-h (0.2)
	ZipfianExp float64 // --rand-zipfian-exp (0.8)
}

// DefaultSBDistParams are sysbench's defaults (1.0.20 and master agree).
var DefaultSBDistParams = SBDistParams{SpecIter: 12, SpecPct: 1, SpecRes: 75, ParetoH: 0.2, ZipfianExp: 0.8}

// SBDistNames lists the supported --rand-type values.
var SBDistNames = []string{"uniform", "gaussian", "special", "pareto", "zipfian"}

// NewSBDist validates kind and p and precomputes the constants.
func NewSBDist(kind string, p SBDistParams) (*SBDist, error) {
	switch kind {
	case "uniform", "gaussian", "special", "pareto", "zipfian":
	default:
		return nil, fmt.Errorf("unknown rand type %q (want one of uniform, gaussian, special, pareto, zipfian)", kind)
	}
	if p.SpecIter < 1 || p.SpecPct < 0 || p.SpecPct > 100 || p.SpecRes < 0 || p.SpecRes >= 100 ||
		p.ParetoH <= 0 || p.ParetoH >= 1 || p.ZipfianExp < 0 {
		return nil, fmt.Errorf("invalid rand parameters %+v", p)
	}
	e := p.ZipfianExp
	return &SBDist{
		kind: kind, iter: p.SpecIter, iterMult: 1 / float64(p.SpecIter),
		pctMult: float64(p.SpecPct) / 100, pct2Mult: float64(p.SpecPct) / 200,
		resMult: 100 / (100 - float64(p.SpecRes)),
		paretoP: math.Log(p.ParetoH) / math.Log(1-p.ParetoH),
		zipfExp: e,
		zipfS:   2 - hIntegralInverse(hIntegral(2.5, e)-hFn(2, e), e),
		zipfHX1: hIntegral(1.5, e) - 1,
	}, nil
}

// Kind returns the distribution name.
func (d *SBDist) Kind() string { return d.kind }

// Default is sysbench.rand.default(a, b): a value in [a, b] with the
// configured distribution.
func (d *SBDist) Default(r *Rand, a, b int) int {
	switch d.kind {
	case "gaussian":
		return d.gaussian(r, a, b)
	case "special":
		return d.special(r, a, b)
	case "pareto":
		return a + int(float64(b-a+1)*math.Pow(r.Float64(), d.paretoP))
	case "zipfian":
		return a + d.zipfInt(r, b-a+1) - 1
	}
	return SBUniform(r, a, b)
}

// SBUniform is sysbench.rand.uniform(a, b) = a + floor(U·(b−a+1)).
func SBUniform(r *Rand, a, b int) int { return a + int(r.Float64()*float64(b-a+1)) }

func (d *SBDist) gaussian(r *Rand, a, b int) int {
	t := float64(b - a + 1)
	var sum float64
	for i := 0; i < d.iter; i++ {
		sum += r.Float64() * t
	}
	return a + int(sum*d.iterMult)
}

// special follows sb_rand.c: the same uniform draw picks the branch and, in
// the rand-spec-res branch, the position inside the central rand-spec-pct
// window.
func (d *SBDist) special(r *Rand, a, b int) int {
	t := float64(b - a)
	rnd := r.Float64()
	if rnd*t*d.resMult < t {
		var sum float64
		for i := 0; i < d.iter; i++ {
			sum += r.Float64()
		}
		return a + int(sum*t*d.iterMult)
	}
	w := t * d.pctMult
	res := rnd*(w+1) + t/2 - t*d.pct2Mult
	return a + int(res)
}

// zipfInt is rejection-inversion Zipf sampling over [1, n] (sb_rand.c,
// after Hörmann & Derflinger 1996).
func (d *SBDist) zipfInt(r *Rand, n int) int {
	e := d.zipfExp
	hN := hIntegral(float64(n)+0.5, e)
	for {
		u := hN + r.Float64()*(d.zipfHX1-hN)
		x := hIntegralInverse(u, e)
		k := int(x + 0.5)
		if k < 1 {
			k = 1
		} else if k > n {
			k = n
		}
		if float64(k)-x <= d.zipfS || u >= hIntegral(float64(k)+0.5, e)-hFn(float64(k), e) {
			return k
		}
	}
}

func hIntegral(x, e float64) float64 {
	logX := math.Log(x)
	return helper2((1-e)*logX) * logX
}

func hFn(x, e float64) float64 { return math.Exp(-e * math.Log(x)) }

func hIntegralInverse(x, e float64) float64 {
	t := x * (1 - e)
	if t < -1 {
		t = -1
	}
	return math.Exp(helper1(t) * x)
}

func helper1(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Log1p(x) / x
	}
	return 1 - x*(0.5-x*(0.33333333333333333-0.25*x))
}

func helper2(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Expm1(x) / x
	}
	return 1 + x*0.5*(1+x*0.33333333333333333*(1+0.25*x))
}

// AppendSBString appends sysbench.rand.string(template) (reference §2.2):
// each '#' becomes a random digit, each '@' a random letter a..z, every other
// byte is copied.
func (r *Rand) AppendSBString(b []byte, template string) []byte {
	var bits uint64
	left := 0
	for i := 0; i < len(template); i++ {
		c := template[i]
		if c != '#' && c != '@' {
			b = append(b, c)
			continue
		}
		// Uniform, as sysbench's per-character draw (byteTable).
		t := letterTable
		if c == '#' {
			t = digitTable
		}
		var ch byte
		for ch == 0 {
			if left == 0 {
				bits, left = r.pcg.Uint64(), 8
			}
			ch = t[bits&0xff]
			bits >>= 8
			left--
		}
		b = append(b, ch)
	}
	return b
}

// SBUnique is sysbench.rand.unique(): a sequence of distinct uint32 values
// (Preshing's quadratic-residue permutation applied twice to an index).
// Indexes must be distinct for distinct results; the caller supplies them
// (e.g. from an atomic counter).
func SBUnique(index, offset uint32) uint32 {
	return sbPermute((sbPermute(index) + offset) ^ 0x5bf03635)
}

// SBUniqueOffset derives the per-run offset from a seed, like
// rand_unique_seed.
func SBUniqueOffset(seed uint32) uint32 { return sbPermute(sbPermute(seed) + 0x46790905) }

func sbPermute(x uint32) uint32 {
	const prime = 4294967291
	if x >= prime {
		return x
	}
	residue := uint32(uint64(x) * uint64(x) % prime)
	if x <= prime/2 {
		return residue
	}
	return prime - residue
}
