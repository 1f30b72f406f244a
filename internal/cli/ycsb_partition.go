package cli

import "benchpress/internal/workload/ycsb"

// ycsbPartitionable refuses partitioned YCSB runs that insert: the run-phase
// insert key sequence (recordcount, recordcount+1, ...) is one counter per
// process, so N processes would insert the same keys. Reads, updates,
// scans and read-modify-writes partition by thread.
func ycsbPartitionable(pr *partRun, w *ycsb.Workload) error {
	if pr == nil || !pr.spec.Active() {
		return nil
	}
	if w.Config().Proportions[ycsb.OpInsert] > 0 {
		return usagef("partition %s: YCSB workloads that insert (insertproportion > 0, e.g. d and e) cannot be partitioned yet: every process would insert the same keys", pr.spec)
	}
	return nil
}
