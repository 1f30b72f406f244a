package results

import (
	"fmt"
	"os"

	"gopkg.in/yaml.v3"
)

// PlanFile is the name of the resolved plan a sweep saves in its directory.
const PlanFile = "plan.yaml"

// Comparison is a named comparison between two cases: overhead is
// (base - other) / base, speed-up other / base.
type Comparison struct {
	Name  string
	Base  string
	Other string
}

// PlanSnapshot is a sweep's saved plan as reports read it: names,
// redacted targets, the cases in plan order and the comparisons.
type PlanSnapshot struct {
	Name        string
	Description string
	Targets     map[string]string // target name -> URL as saved (redacted again on read)
	Cases       []CaseSnapshot
	Compare     []Comparison
}

// CaseSnapshot is one case of a saved plan.
type CaseSnapshot struct {
	ID          string
	Description string
	Target      string // target name
	Workload    string
	Ladder      []int // the concurrency steps planned (nil in plans saved without it)
}

// snapshotDoc is the loose shape of plan.yaml: unknown keys (workload
// options, timings, keys of other versions) are ignored, targets may be a
// URL or {url: ...}, comparisons a pair or {name, base, other}.
type snapshotDoc struct {
	Name        string               `yaml:"name"`
	Description string               `yaml:"description"`
	Targets     map[string]yaml.Node `yaml:"targets"`
	Defaults    struct {
		Workload string `yaml:"workload"`
	} `yaml:"defaults"`
	Cases []struct {
		ID          string `yaml:"id"`
		Description string `yaml:"description"`
		Target      string `yaml:"target"`
		Workload    string `yaml:"workload"`
		Ladder      []int  `yaml:"ladder"`
	} `yaml:"cases"`
	Compare []yaml.Node `yaml:"compare"`
}

// ReadPlan reads a saved plan leniently: it validates nothing a newer or
// older benchpress might spell differently, so any saved sweep still
// renders. Only unreadable YAML is an error.
func ReadPlan(path string) (*PlanSnapshot, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read plan: %w", err)
	}
	var doc snapshotDoc
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("read plan %s: %w", path, err)
	}
	p := &PlanSnapshot{Name: doc.Name, Description: doc.Description, Targets: map[string]string{}}
	for name, n := range doc.Targets {
		var u string
		if n.Kind == yaml.MappingNode {
			var t struct {
				URL string `yaml:"url"`
			}
			_ = n.Decode(&t)
			u = t.URL
		} else {
			_ = n.Decode(&u)
		}
		p.Targets[name] = Redact(u)
	}
	for _, c := range doc.Cases {
		w := c.Workload
		if w == "" {
			w = doc.Defaults.Workload
		}
		p.Cases = append(p.Cases, CaseSnapshot{ID: c.ID, Description: c.Description, Target: c.Target, Workload: w, Ladder: c.Ladder})
	}
	for _, n := range doc.Compare {
		var c Comparison
		switch n.Kind {
		case yaml.SequenceNode:
			var pair []string
			if n.Decode(&pair) != nil || len(pair) != 2 {
				continue
			}
			c.Base, c.Other = pair[0], pair[1]
		case yaml.MappingNode:
			var m struct{ Name, Base, Other string }
			if n.Decode(&m) != nil {
				continue
			}
			c = Comparison(m)
		default:
			continue
		}
		if c.Name == "" {
			c.Name = c.Base + " vs " + c.Other
		}
		p.Compare = append(p.Compare, c)
	}
	return p, nil
}
