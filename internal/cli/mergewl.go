package cli

import (
	"fmt"
	"strings"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
	"benchpress/internal/workload/sysbench"
	"benchpress/internal/workload/tpcc"
	"benchpress/internal/workload/ycsb"
)

// mergeSummarizer rebuilds, from a partition's saved configuration, the
// workload figures a run adds (workload.Summarizer) so that a merge
// recomputes them from the merged counts. nil (no error) for workloads
// whose figures merge generically.
func mergeSummarizer(r *results.Run) (func(*results.Run, *metrics.Snapshot), []string, error) {
	family, _, _ := strings.Cut(r.Workload, "/")
	switch family {
	case "sysbench":
		c := r.Config
		per, _ := c["queries_per_event"].(float64)
		w := sysbench.ForSummary(fmt.Sprint(c["test"]), fmt.Sprint(c["rand_type"]), int(per))
		return w.Summarize, w.Extras(), nil
	case "ycsb":
		raw, _ := r.Config["properties"].(map[string]any)
		p := ycsb.Props{}
		for k, v := range raw {
			p[k] = fmt.Sprint(v)
		}
		w, err := ycsb.New(p)
		if err != nil {
			return nil, nil, usagef("merge: ycsb properties in the result: %v", err)
		}
		return w.Summarize, w.Extras(), nil
	case "tpcc":
	default:
		return nil, nil, nil
	}
	c := r.Config
	num := func(k string) int {
		v, _ := c[k].(float64)
		return int(v)
	}
	mix, err := tpcc.ParseMix(fmt.Sprint(c["mix"]))
	if err != nil {
		return nil, nil, usagef("merge: tpcc mix in the result: %v", err)
	}
	names, err := tpcc.NamesFor(fmt.Sprint(c["names"]))
	if err != nil {
		return nil, nil, usagef("merge: tpcc names in the result: %v", err)
	}
	seed, _ := c["seed"].(float64)
	wait, _ := c["wait"].(bool)
	meta := tpcc.Meta{Scheme: names.Scheme, Warehouses: num("loaded_warehouses")}
	if a, ok := r.Extra["audit"].(map[string]any); ok {
		v, _ := a["c_last_c_load"].(float64)
		meta.CLoadLast = int(v)
	}
	// The seed is saved as a JSON number: exact below 2^53 only, so C-Run
	// is taken from the partition's audit rather than recomputed.
	wl, err := tpcc.New(tpcc.Config{Warehouses: num("warehouses"), Mix: mix, Wait: wait, Names: names, Seed: uint64(seed)}, meta)
	if err != nil {
		return nil, nil, usagef("merge: tpcc configuration in the result: %v", err)
	}
	cRun := -1
	if a, ok := r.Extra["audit"].(map[string]any); ok {
		if v, ok := a["c_last_c_run"].(float64); ok {
			cRun = int(v)
		}
	}
	sum := func(out *results.Run, cum *metrics.Snapshot) {
		wl.Summarize(out, cum)
		if a, ok := out.Extra["audit"].(map[string]any); ok && cRun >= 0 {
			a["c_last_c_run"] = cRun
		}
	}
	return sum, append([]string(nil), tpcc.ExtraNames...), nil
}
