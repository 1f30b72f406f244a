// Package partition splits one benchmark run over N driver processes so that
// together they run exactly what one process would, and starts them at the
// same wall-clock instant.
//
// A run of T terminals is split by global terminal id: every partition
// creates only its share of the terminals, but each keeps the id (and so the
// random stream, the home warehouse and district) it would have in a single
// process. TPC-C is split by warehouse: partition i of N owns a contiguous
// range of warehouses and runs exactly the terminals whose home warehouse
// (tpcc.Bind) lies in it, so terminals of different partitions never share a
// home warehouse; remote warehouses are still drawn over all W (clause
// 2.4.1.5, 2.5.1.2). sysbench and YCSB threads are split into contiguous id
// ranges; their key streams are seeded by the global id and so disjoint.
package partition

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Spec is partition Index (0-based) of Count. The zero value (Count 0) means
// "not partitioned".
type Spec struct {
	Index, Count int
}

// Parse reads "I/N" (0 <= I < N, N >= 1), as given to --partition.
func Parse(s string) (Spec, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Spec{}, fmt.Errorf("partition %q: want I/N, e.g. 0/4", s)
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return Spec{}, fmt.Errorf("partition %q: I and N must be integers", s)
	}
	if n < 1 || i < 0 || i >= n {
		return Spec{}, fmt.Errorf("partition %q: want 0 <= I < N and N >= 1", s)
	}
	return Spec{Index: i, Count: n}, nil
}

// Active reports whether the run is split over more than one partition.
func (s Spec) Active() bool { return s.Count > 1 }

func (s Spec) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Range returns partition s's contiguous share [lo, hi) of total items:
// the first total%N partitions get one more.
func (s Spec) Range(total int) (lo, hi int) {
	if s.Count < 1 {
		return 0, total
	}
	q, r := total/s.Count, total%s.Count
	lo = s.Index*q + min(s.Index, r)
	hi = lo + q
	if s.Index < r {
		hi++
	}
	return lo, hi
}

// Share returns the part of total (an operation count) that belongs to the
// threads [lo, hi) of terminals: floor(total*hi/T) - floor(total*lo/T), so
// the shares of contiguous ranges add up to total exactly.
func Share(total int64, lo, hi, terminals int) int64 {
	if terminals <= 0 {
		return 0
	}
	return mulDiv(total, hi, terminals) - mulDiv(total, lo, terminals)
}

// mulDiv is total*k/n without overflow of the product (an operation count
// near 2^63 times a thread index): 128-bit through math/bits; total >= 0,
// 0 <= k <= n.
func mulDiv(total int64, k, n int) int64 {
	if total <= 0 {
		return total * int64(k) / int64(n)
	}
	h, l := bits.Mul64(uint64(total), uint64(k))
	q, _ := bits.Div64(h, l, uint64(n))
	return int64(q)
}

// Threads returns the global ids of partition s's threads when total
// threads are split into contiguous ranges (sysbench, YCSB).
func (s Spec) Threads(total int) []int {
	lo, hi := s.Range(total)
	ids := make([]int, 0, hi-lo)
	for id := lo; id < hi; id++ {
		ids = append(ids, id)
	}
	return ids
}

// Warehouses returns partition s's warehouse range [lo, hi] (1-based,
// inclusive) of w warehouses.
func (s Spec) Warehouses(w int) (lo, hi int) {
	a, b := s.Range(w)
	return a + 1, b
}

// TPCCTerminals returns the global ids of the terminals of a run with
// terminals terminals over w warehouses whose home warehouse (bind) lies in
// partition s's warehouse range. bind is tpcc.Bind.
func (s Spec) TPCCTerminals(terminals, w int, bind func(id, w int) (int, int)) []int {
	lo, hi := s.Warehouses(w)
	var ids []int
	for id := 0; id < terminals; id++ {
		if wh, _ := bind(id, w); wh >= lo && wh <= hi {
			ids = append(ids, id)
		}
	}
	return ids
}

// Validate returns the problems with splitting terminals terminals (and, for
// TPC-C, w > 0 warehouses) into s.Count partitions: every partition needs a
// warehouse and a terminal.
func (s Spec) Validate(terminals, w int) error {
	if !s.Active() {
		return nil
	}
	if w > 0 && w < s.Count {
		return fmt.Errorf("partition %s: %d warehouse(s) cannot be split into %d partitions (each needs its own warehouses)", s, w, s.Count)
	}
	if terminals < s.Count {
		return fmt.Errorf("partition %s: %d terminal(s) cannot be split into %d partitions", s, terminals, s.Count)
	}
	if w > 0 && terminals < w {
		return fmt.Errorf("partition %s: %d terminal(s) leave warehouses without a terminal; use at least one terminal per warehouse (%d)", s, terminals, w)
	}
	return nil
}
