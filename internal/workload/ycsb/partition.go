package ycsb

import (
	"errors"

	"benchpress/internal/partition"
)

var _ partition.Checker = (*Workload)(nil)

// Partitionable implements partition.Checker: the run-phase insert key
// sequence (recordcount, recordcount+1, ...) is one counter per process, so
// N partitions would insert the same keys. Reads, updates, scans and
// read-modify-writes partition by thread.
func (w *Workload) Partitionable() error {
	if w.cfg.Proportions[OpInsert] > 0 {
		return errors.New("YCSB workloads that insert (insertproportion > 0, e.g. d and e) cannot be partitioned yet: every process would insert the same keys")
	}
	return nil
}
