package randgen

import (
	"math"
	"sort"
	"testing"
)

// topShare returns the share of draws that hit the most frequent frac of items.
func topShare(counts map[int64]int, items int64, frac float64, total int) float64 {
	vals := make([]int, 0, len(counts))
	for _, c := range counts {
		vals = append(vals, c)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(vals)))
	k := int(float64(items) * frac)
	s := 0
	for i := 0; i < k && i < len(vals); i++ {
		s += vals[i]
	}
	return float64(s) / float64(total)
}

func TestZipfianSkew(t *testing.T) {
	const items, draws = 100_000, 400_000
	cases := []struct {
		name   string
		gen    IntGen
		lo, hi float64 // bounds for the hottest 1 % share
	}{
		// For θ=0.99 and n=1e5 the hottest 1 000 items carry ~ H(1000)/H(1e5) ≈ 0.6.
		{"zipfian", NewZipfian(0, items-1, ZipfianConstant), 0.5, 0.75},
		// Scrambled over 1e5 of 1e10 inner items: the hash folds many inner
		// items into each bucket, so the skew is weaker but still clear.
		{"scrambled", NewScrambledZipfian(0, items-1), 0.1, 0.75},
		{"uniform", Uniform{0, items - 1}, 0.005, 0.03},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New(1, 2)
			counts := map[int64]int{}
			for i := 0; i < draws; i++ {
				v := c.gen.Next(r)
				if v < 0 || v >= items {
					t.Fatalf("value %d out of [0,%d)", v, items)
				}
				counts[v]++
			}
			share := topShare(counts, items, 0.01, draws)
			if share < c.lo || share > c.hi {
				t.Errorf("hottest 1%% share = %.3f, want in [%.3f, %.3f]", share, c.lo, c.hi)
			}
		})
	}
}

func TestZipfianFirstItemsMostPopular(t *testing.T) {
	z := NewZipfian(10, 10+999, ZipfianConstant)
	r := New(3, 4)
	counts := make([]int, 1000)
	for i := 0; i < 200_000; i++ {
		counts[z.Next(r)-10]++
	}
	if !(counts[0] > counts[1] && counts[1] > counts[10] && counts[10] > counts[500]) {
		t.Errorf("popularity not decreasing: %d %d %d %d", counts[0], counts[1], counts[10], counts[500])
	}
	// P(item 0) = 1/ζ(1000, 0.99) ≈ 0.133.
	p0 := float64(counts[0]) / 200_000
	want := 1 / Zeta(0, 1000, ZipfianConstant, 0)
	if math.Abs(p0-want) > 0.01 {
		t.Errorf("P(first) = %.4f, want %.4f", p0, want)
	}
}

func TestZipfianIncrementalZeta(t *testing.T) {
	z := NewZipfian(0, 99, ZipfianConstant)
	r := New(5, 6)
	for i := 0; i < 1000; i++ {
		if v := z.NextN(r, 200); v < 0 || v >= 200 {
			t.Fatalf("value %d out of [0,200)", v)
		}
	}
	if want := Zeta(0, 200, ZipfianConstant, 0); math.Abs(z.zetaN-want) > 1e-9 {
		t.Errorf("incremental ζ = %v, want %v", z.zetaN, want)
	}
}

func TestScrambledZetaConstant(t *testing.T) {
	// The constant YCSB hard-codes; check its order of magnitude against a
	// partial sum (ζ grows like n^(0.01)/0.01 − 1/0.01 + γ-ish for θ = 0.99).
	partial := Zeta(0, 1_000_000, ZipfianConstant, 0)
	if !(partial < scrambledZetaN && scrambledZetaN-partial < 15) {
		t.Errorf("ζ(1e6) = %v, constant ζ(1e10) = %v", partial, scrambledZetaN)
	}
}
