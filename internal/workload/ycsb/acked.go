package ycsb

import (
	"fmt"
	"sync/atomic"
)

// ackWindow is the number of keynums that may be handed out but not yet
// acknowledged (AcknowledgedCounterGenerator.WINDOW_SIZE = 2^20).
const ackWindow = 1 << 20

// ackCounter is YCSB's AcknowledgedCounterGenerator (§3.5 "key clamp"):
// Next hands out insert keynums from a counter starting at recordcount; Ack
// marks one as finished; Last is the highest keynum below which every
// keynum is acknowledged, so reads never target a key still being inserted.
// It is lock-free: a bitset of atomic words, the limit advanced by CAS.
type ackCounter struct {
	next  atomic.Int64
	limit atomic.Int64
	bits  []atomic.Uint64
}

func newAckCounter(start int64) *ackCounter {
	a := &ackCounter{bits: make([]atomic.Uint64, ackWindow/64)}
	a.next.Store(start)
	a.limit.Store(start - 1)
	return a
}

// Next returns the next insert keynum.
func (a *ackCounter) Next() int64 { return a.next.Add(1) - 1 }

// Last returns the last acknowledged keynum (all smaller ones are too).
func (a *ackCounter) Last() int64 { return a.limit.Load() }

// Ack acknowledges v (also after a failed insert, as YCSB does) and
// advances the limit over every contiguous acknowledged keynum.
func (a *ackCounter) Ack(v int64) error {
	if v-a.limit.Load() >= ackWindow-1 {
		return fmt.Errorf("too many unacknowledged insertion keys (%d outstanding)", v-a.limit.Load())
	}
	s := uint64(v) % ackWindow
	a.bits[s/64].Or(1 << (s % 64))
	for {
		l := a.limit.Load()
		n := uint64(l+1) % ackWindow
		if a.bits[n/64].Load()&(1<<(n%64)) == 0 {
			return nil
		}
		if a.limit.CompareAndSwap(l, l+1) {
			a.bits[n/64].And(^uint64(1 << (n % 64)))
		}
	}
}
