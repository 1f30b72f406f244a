package randgen

import (
	"math"
	"testing"
)

func TestHotspotFractions(t *testing.T) {
	cases := []struct {
		name      string
		data, opn float64
	}{
		{"default 0.2/0.8", 0.2, 0.8},
		{"0.1/0.9", 0.1, 0.9},
		{"all hot", 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			const lo, hi, draws = 100, 1099, 200_000
			h := NewHotspot(lo, hi, c.data, c.opn)
			r := New(9, 10)
			hotEnd := int64(lo + (hi-lo+1)*c.data)
			hot := 0
			for i := 0; i < draws; i++ {
				v := h.Next(r)
				if v < lo || v > hi {
					t.Fatalf("value %d out of range", v)
				}
				if v < hotEnd {
					hot++
				}
			}
			if f := float64(hot) / draws; math.Abs(f-c.opn) > 0.01 {
				t.Errorf("hot share %.3f, want %.2f", f, c.opn)
			}
		})
	}
}

func TestUniformAndDiscreteBounds(t *testing.T) {
	r := New(11, 12)
	u := Uniform{5, 9}
	seen := map[int64]bool{}
	for i := 0; i < 10_000; i++ {
		v := u.Next(r)
		if v < 5 || v > 9 {
			t.Fatalf("uniform value %d out of [5,9]", v)
		}
		seen[v] = true
	}
	if len(seen) != 5 {
		t.Errorf("uniform hit %d of 5 values", len(seen))
	}
	d := NewDiscrete([]float64{0.5, 0, 0.25, 0.25, 0})
	counts := make([]int, 5)
	for i := 0; i < 100_000; i++ {
		counts[d.Next(r)]++
	}
	if counts[1] != 0 || counts[4] != 0 {
		t.Errorf("zero-weight values chosen: %v", counts)
	}
	if f := float64(counts[0]) / 100_000; math.Abs(f-0.5) > 0.01 {
		t.Errorf("weight 0.5 chosen %.3f", f)
	}
}
