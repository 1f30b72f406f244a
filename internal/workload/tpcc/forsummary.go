package tpcc

import (
	"fmt"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
	"benchpress/internal/usage"
	"benchpress/internal/workload"
)

// summarizerOf is the family's registry.Meta.Summarizer: the workload
// rebuilt from a partition's saved config (warehouses, mix, wait, names,
// seed, sharding) and its audit (C-Load; C-Run as the partitions used it, since a
// seed saved as a JSON number is exact only below 2^53).
func summarizerOf(r *results.Run) (workload.Summarizer, []string, error) {
	c := r.Config
	num := func(k string) int {
		v, _ := c[k].(float64)
		return int(v)
	}
	mix, err := ParseMix(fmt.Sprint(c["mix"]))
	if err != nil {
		return nil, nil, usage.Errorf("merge: tpcc mix in the result: %v", err)
	}
	names, err := NamesFor(fmt.Sprint(c["names"]))
	if err != nil {
		return nil, nil, usage.Errorf("merge: tpcc names in the result: %v", err)
	}
	seed, _ := c["seed"].(float64)
	wait, _ := c["wait"].(bool)
	meta := Meta{Scheme: names.Scheme, Warehouses: num("loaded_warehouses")}
	audit, _ := r.Extra["audit"].(map[string]any)
	if v, ok := audit["c_last_c_load"].(float64); ok {
		meta.CLoadLast = int(v)
	}
	// A shard-aware run's layout (shardConfig), so that the merged run
	// reports its cross-shard transactions, and perfect sharding's
	// deviation, as a single run does.
	var sh Sharding
	if n := num("shards"); n > 0 {
		pl, m, err := ParsePlacement(fmt.Sprint(c["shard_placement"]))
		if err != nil {
			return nil, nil, usage.Errorf("merge: tpcc shard placement in the result: %v", err)
		}
		perfect, _ := c["perfect_sharding"].(bool)
		sh = Sharding{Shards: n, Placement: pl, Map: m, Perfect: perfect}
	}
	w, err := New(Config{Warehouses: num("warehouses"), Mix: mix, Wait: wait, Names: names, Seed: uint64(seed), Sharding: sh}, meta)
	if err != nil {
		return nil, nil, usage.Errorf("merge: tpcc configuration in the result: %v", err)
	}
	if v, ok := audit["c_last_c_run"].(float64); ok {
		w.cRun = int(v)
	}
	return mergedSummary{w}, append([]string(nil), ExtraNames...), nil
}

// mergedSummary is a Workload used only to summarize merged counts.
type mergedSummary struct{ w *Workload }

func (m mergedSummary) Summarize(r *results.Run, cum *metrics.Snapshot) { m.w.Summarize(r, cum) }
