package ycsb

import (
	"sync"
	"testing"
)

func TestAckCounterOutOfOrder(t *testing.T) {
	a := newAckCounter(100)
	k0, k1, k2 := a.Next(), a.Next(), a.Next()
	if a.Last() != 99 {
		t.Fatalf("Last = %d, want 99", a.Last())
	}
	a.Ack(k2)
	a.Ack(k1)
	if a.Last() != 99 {
		t.Errorf("Last = %d before 100 was acknowledged", a.Last())
	}
	a.Ack(k0)
	if a.Last() != 102 {
		t.Errorf("Last = %d, want 102", a.Last())
	}
}

func TestAckCounterConcurrent(t *testing.T) {
	a := newAckCounter(0)
	const workers, each = 8, 20000
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				k := a.Next()
				if l := a.Last(); l >= k {
					t.Errorf("Last %d >= unacknowledged %d", l, k)
					return
				}
				if err := a.Ack(k); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if a.Last() != workers*each-1 {
		t.Errorf("Last = %d, want %d", a.Last(), workers*each-1)
	}
}
