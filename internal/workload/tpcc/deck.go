package tpcc

import "benchpress/internal/randgen"

// buildDeck returns the cards of one pass for the mix weights, reduced by
// their greatest common divisor (clause 5.2.4.2): 45/43/4/4/4 stays a
// 100-card deck, 10/10/1/1/1 is 23 cards, 2/2/0/0/0 becomes 1/1/0/0/0.
func buildDeck(mix [NumOps]int) []int8 {
	g := 0
	for _, m := range mix {
		g = mixGCD(g, m)
	}
	if g == 0 {
		return nil
	}
	var cards []int8
	for op, m := range mix {
		for i := 0; i < m/g; i++ {
			cards = append(cards, int8(op))
		}
	}
	return cards
}

func mixGCD(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// deck is one terminal's own deck of cards (clause 5.2.4.2, §1.7): every
// card of a pass is dealt exactly once in a uniformly random order
// (Fisher–Yates), and the deck is reshuffled before each new pass. This is a
// true deck, not weighted sampling (go-tpc's mistake).
type deck struct {
	cards []int8
	next  int
	r     *randgen.Rand
}

func newDeck(proto []int8, r *randgen.Rand) *deck {
	d := &deck{cards: append([]int8(nil), proto...), r: r}
	d.next = len(d.cards) // shuffle on first deal
	return d
}

// deal returns the next card, reshuffling when the pass is exhausted.
func (d *deck) deal() int {
	if d.next >= len(d.cards) {
		c := d.cards
		for i := len(c) - 1; i > 0; i-- {
			j := d.r.IntN(i + 1)
			c[i], c[j] = c[j], c[i]
		}
		d.next = 0
	}
	op := d.cards[d.next]
	d.next++
	return int(op)
}
