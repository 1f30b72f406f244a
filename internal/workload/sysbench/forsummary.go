package sysbench

import (
	"fmt"

	"benchpress/internal/results"
	"benchpress/internal/workload"
)

// ForSummary returns a workload that can only Summarize: the figures of a
// run recomputed from saved counts (`benchpress merge` of a partitioned
// run's results), from the test name, --rand-type and queries per event as
// saved in the result's config. It cannot run.
func ForSummary(test, randType string, perEvent int) *Workload {
	return &Workload{test: test, opts: Options{RandType: randType}, perEvent: perEvent}
}

// summarizerOf is the family's registry.Meta.Summarizer.
func summarizerOf(r *results.Run) (workload.Summarizer, []string, error) {
	c := r.Config
	per, _ := c["queries_per_event"].(float64)
	w := ForSummary(fmt.Sprint(c["test"]), fmt.Sprint(c["rand_type"]), int(per))
	return w, w.Extras(), nil
}
