package sockio

// WaitPolicy is how a read of a Conn waits for a reply that has not come
// yet (Conn.SetWaitPolicy). The zero value blocks the thread in slices of
// Slice until the data, the deadline or Close.
type WaitPolicy struct {
	// YieldFirst: a read that finds no data gives up the CPU once
	// (sched_yield) and looks again before it blocks. For terminals that
	// outnumber the cores, sharing them with their servers, and whose
	// round trips carry server work (TPC-C's): the thread stays runnable
	// while its server answers, so the reply does not wake it and it does
	// not preempt the server that sent it (MariaDB TPC-C at 8-64
	// terminals: tpmC +4 to +22 %, client CPU per transaction -4 to -39 %,
	// docs/benchmarks.md "2026-11-26 (15:00)"). Short round trips lose by
	// it: the yielded thread queues behind the runnable ones (point selects
	// at 4-16 PostgreSQL terminals, p99 higher in 21 of 21 rounds on an AMD
	// EPYC host, "2026-11-27 (10:30)"; on MariaDB 4x at 8, "2026-11-26
	// (15:00)").
	YieldFirst bool
	// ParkLong: a read that has waited ReadSlice without data waits on
	// parked in the runtime's poller (pollWait) instead of in its thread,
	// which the runtime would interrupt with a preemption signal every
	// 10-20 ms. For round trips that often take longer than ReadSlice
	// (TPC-C's transactions); short ones lose by it (point selects at 128
	// threads on MariaDB: client CPU +15 %, docs/benchmarks.md
	// "2026-11-26 (18:00)").
	ParkLong bool
}

// SetWaitPolicy sets how c's reads wait (WaitPolicy). Set it before the
// Conn is used. If the socket refuses the shorter receive timeout that
// ParkLong needs, a read parks after a Slice instead of a ReadSlice.
func (c *Conn) SetWaitPolicy(p WaitPolicy) {
	if p.ParkLong != c.wait.ParkLong {
		c.setReadSlice(p.ParkLong)
	}
	c.wait = p
}
