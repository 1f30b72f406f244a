package tpcc

import (
	"testing"

	"benchpress/internal/randgen"
)

func TestBuildDeck(t *testing.T) {
	tests := []struct {
		name string
		mix  [NumOps]int
		want [NumOps]int // card counts
	}{
		{"default 100 cards", DefaultMix, [NumOps]int{45, 43, 4, 4, 4}},
		{"tpcc-mysql 23 cards", [NumOps]int{10, 10, 1, 1, 1}, [NumOps]int{10, 10, 1, 1, 1}},
		{"reduced by gcd", [NumOps]int{20, 20, 4, 4, 4}, [NumOps]int{5, 5, 1, 1, 1}},
		{"zero weights", [NumOps]int{2, 2, 0, 0, 0}, [NumOps]int{1, 1, 0, 0, 0}},
		{"one op", [NumOps]int{0, 0, 0, 0, 7}, [NumOps]int{0, 0, 0, 0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got [NumOps]int
			for _, c := range buildDeck(tc.mix) {
				got[c]++
			}
			if got != tc.want {
				t.Fatalf("cards = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDeckPasses checks that every pass deals exactly the deck's cards
// (exact counts per pass) and that passes are reshuffled.
func TestDeckPasses(t *testing.T) {
	for _, mix := range [][NumOps]int{DefaultMix, {10, 10, 1, 1, 1}, {1, 0, 0, 0, 0}} {
		proto := buildDeck(mix)
		d := newDeck(proto, randgen.New(7, 1))
		var want [NumOps]int
		for _, c := range proto {
			want[c]++
		}
		orders := map[string]bool{}
		const passes = 50
		for p := 0; p < passes; p++ {
			var got [NumOps]int
			seq := make([]byte, len(proto))
			for i := range proto {
				c := d.deal()
				got[c]++
				seq[i] = byte('0' + c)
			}
			if got != want {
				t.Fatalf("mix %v pass %d: counts %v, want %v", mix, p, got, want)
			}
			orders[string(seq)] = true
		}
		if len(proto) > 2 && len(orders) < passes-1 {
			t.Errorf("mix %v: only %d distinct orders in %d passes: not reshuffled", mix, len(orders), passes)
		}
	}
}
