package tpcc

// argSlots keeps a transaction's integer arguments in place so that they
// go to the statements by pointer (*int64, which every backend takes:
// target.Stmt). An integer above 255 stored in an interface is an 8-byte
// heap object (runtime.convT64): a New-Order bound about 130 of them
// (item ids, stock quantities, order ids), more than half of the TPC-C
// driver's allocations with the scanned strings (docs/benchmarks.md,
// "2026-11-27 (01:45)").
//
// A terminal resets its slots when a transaction starts and before it
// builds a batched statement's argument list; a slot handed out stays
// valid until the next reset. When the slots run out, values are boxed as
// before: correct, only slower.
type argSlots struct {
	v [argSlotsLen]int64
	n int
}

// argSlotsLen covers the most a transaction takes between two resets: the
// per-line New-Order's customer id, then its item ids and, per line, the
// supplying warehouse, the item id and the new stock quantity (the
// batched shape's largest is the stock statements' 2 per line).
const argSlotsLen = 1 + 4*MaxOrderLines

func (a *argSlots) reset() { a.n = 0 }

// num returns x as a statement argument.
func (a *argSlots) num(x int) any { return a.num64(int64(x)) }

// num64 returns x as a statement argument.
func (a *argSlots) num64(x int64) any {
	if a.n == len(a.v) {
		return x
	}
	p := &a.v[a.n]
	a.n++
	*p = x
	return p
}
