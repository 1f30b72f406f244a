package ycsb

import (
	"fmt"

	"benchpress/internal/results"
	"benchpress/internal/usage"
	"benchpress/internal/workload"
)

// summarizerOf is the family's registry.Meta.Summarizer: the workload
// rebuilt from the properties saved in the result's config (passwords are
// masked there; they play no part in the figures).
func summarizerOf(r *results.Run) (workload.Summarizer, []string, error) {
	raw, _ := r.Config["properties"].(map[string]any)
	p := Props{}
	for k, v := range raw {
		p[k] = fmt.Sprint(v)
	}
	w, err := New(p)
	if err != nil {
		return nil, nil, usage.Errorf("merge: ycsb properties in the result: %v", err)
	}
	return w, w.Extras(), nil
}
