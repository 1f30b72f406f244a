package randgen

import (
	"math"
	"testing"
)

func TestSBDistBoundsAndShape(t *testing.T) {
	const a, b, draws = 1, 10_000, 200_000
	cases := []struct {
		kind  string
		check func(t *testing.T, counts []int)
	}{
		{"uniform", func(t *testing.T, c []int) {
			if f := share(c, 1, 100); math.Abs(f-0.01) > 0.003 {
				t.Errorf("first 1%% share %.4f", f)
			}
		}},
		{"special", func(t *testing.T, c []int) {
			// 75 % land in the central 1 % window (reference §2.6).
			if f := share(c, 4950, 5051); f < 0.72 || f > 0.80 {
				t.Errorf("central 1%% share %.4f, want ~0.75+", f)
			}
		}},
		{"gaussian", func(t *testing.T, c []int) {
			if f := share(c, 4000, 6000); f < 0.6 {
				t.Errorf("central 20%% share %.4f", f)
			}
		}},
		{"pareto", func(t *testing.T, c []int) {
			// h = 0.2: 80 % of draws hit the first 20 % of the range.
			if f := share(c, 1, 2000); math.Abs(f-0.8) > 0.02 {
				t.Errorf("first 20%% share %.4f, want ~0.8", f)
			}
		}},
		{"zipfian", func(t *testing.T, c []int) {
			if !(c[1] > c[2] && c[2] > c[100]) {
				t.Errorf("zipfian not decreasing: %d %d %d", c[1], c[2], c[100])
			}
			// P(1) = 1/H(n, 0.8); H(1e4, 0.8) ≈ 27.8.
			if f := float64(c[1]) / draws; math.Abs(f-1/gen(10_000, 0.8)) > 0.005 {
				t.Errorf("P(1) = %.4f, want %.4f", f, 1/gen(10_000, 0.8))
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			d, err := NewSBDist(c.kind, DefaultSBDistParams)
			if err != nil {
				t.Fatal(err)
			}
			r := New(13, 14)
			counts := make([]int, b+1)
			for i := 0; i < draws; i++ {
				v := d.Default(r, a, b)
				if v < a || v > b {
					t.Fatalf("%s value %d out of [%d,%d]", c.kind, v, a, b)
				}
				counts[v]++
			}
			c.check(t, counts)
		})
	}
	if _, err := NewSBDist("bogus", DefaultSBDistParams); err == nil {
		t.Error("unknown kind accepted")
	}
}

func share(c []int, lo, hi int) float64 {
	s, tot := 0, 0
	for i, v := range c {
		tot += v
		if i >= lo && i <= hi {
			s += v
		}
	}
	return float64(s) / float64(tot)
}

func gen(n int, e float64) float64 {
	var s float64
	for i := 1; i <= n; i++ {
		s += math.Pow(float64(i), -e)
	}
	return s
}

func TestAppendSBString(t *testing.T) {
	r := New(15, 16)
	tmpl := "###########-@@@@-x"
	b := r.AppendSBString([]byte("p:"), tmpl)
	if len(b) != 2+len(tmpl) {
		t.Fatalf("len %d", len(b))
	}
	for i, c := range b[2:] {
		switch tmpl[i] {
		case '#':
			if c < '0' || c > '9' {
				t.Errorf("pos %d: %q not a digit", i, c)
			}
		case '@':
			if c < 'a' || c > 'z' {
				t.Errorf("pos %d: %q not a letter", i, c)
			}
		default:
			if c != tmpl[i] {
				t.Errorf("pos %d: %q, want %q", i, c, tmpl[i])
			}
		}
	}
}

func TestSBUniqueDistinct(t *testing.T) {
	off := SBUniqueOffset(42)
	seen := make(map[uint32]bool, 100_000)
	for i := uint32(0); i < 100_000; i++ {
		v := SBUnique(i, off)
		if seen[v] {
			t.Fatalf("duplicate %d at index %d", v, i)
		}
		seen[v] = true
	}
}
