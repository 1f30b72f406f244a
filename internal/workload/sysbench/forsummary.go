package sysbench

// ForSummary returns a workload that can only Summarize: the figures of a
// run recomputed from saved counts (`benchpress merge` of a partitioned
// run's results), from the test name, --rand-type and queries per event as
// saved in the result's config. It cannot run.
func ForSummary(test, randType string, perEvent int) *Workload {
	return &Workload{test: test, opts: Options{RandType: randType}, perEvent: perEvent}
}
