package randgen

import "testing"

func TestSkewedLatestFavoursNewest(t *testing.T) {
	last := int64(9_999)
	g := NewSkewedLatest(func() int64 { return last })
	r := New(7, 8)
	const draws = 100_000
	newest, oldHalf := 0, 0
	for i := 0; i < draws; i++ {
		v := g.Next(r)
		if v < 0 || v > last {
			t.Fatalf("value %d out of [0,%d]", v, last)
		}
		if v > last-100 {
			newest++
		}
		if v < last/2 {
			oldHalf++
		}
	}
	if f := float64(newest) / draws; f < 0.45 {
		t.Errorf("newest 1%% got %.3f of draws, want >= 0.45", f)
	}
	if f := float64(oldHalf) / draws; f > 0.1 {
		t.Errorf("oldest half got %.3f of draws, want <= 0.1", f)
	}
	// Growing max moves the hot spot with it.
	last = 20_000
	c := g.Clone()
	hits := 0
	for i := 0; i < 10_000; i++ {
		if c.Next(r) > 19_900 {
			hits++
		}
	}
	if hits < 4000 {
		t.Errorf("after growth newest keys got %d of 10000 draws", hits)
	}
}
