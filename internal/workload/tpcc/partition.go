package tpcc

import "benchpress/internal/partition"

var _ partition.Splitter = (*Workload)(nil)

// Split implements partition.Splitter: partition s of a run of terminals
// owns a contiguous range of the W warehouses and runs exactly the
// terminals whose home warehouse (Bind) lies in it, so terminals of
// different partitions never share a home warehouse. Remote warehouses
// (clause 2.4.1.5, 2.5.1.2) are still drawn over all W.
func (w *Workload) Split(s partition.Spec, terminals int) ([]int, int, int, error) {
	if err := s.Validate(terminals, w.w); err != nil {
		return nil, 0, 0, err
	}
	lo, hi := s.Warehouses(w.w)
	return s.TPCCTerminals(terminals, w.w, Bind), lo, hi, nil
}
