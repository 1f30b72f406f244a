package registry

import (
	"benchpress/internal/metrics"
	"benchpress/internal/results"
)

// MergeSummarizer returns the workload figures' summarizer of r's family
// (Meta.Summarizer) and its counter names; nil for a family
// without one or an unknown workload (Merge then keeps generic figures).
func MergeSummarizer(r *results.Run) (func(*results.Run, *metrics.Snapshot), []string, error) {
	m, _, err := Lookup(r.Workload)
	if err != nil || m.Summarizer == nil {
		return nil, nil, nil
	}
	s, names, err := m.Summarizer(r)
	if err != nil {
		return nil, nil, err
	}
	return s.Summarize, names, nil
}
