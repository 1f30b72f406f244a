package sweep

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"gopkg.in/yaml.v3"

	"benchpress/internal/registry"
	"benchpress/internal/results"
)

// PlanFile is the name of the resolved plan in a sweep directory (read
// back leniently by results.ReadPlan).
const PlanFile = results.PlanFile

// MarshalResolved renders the plan with every case fully resolved (defaults
// merged in) and every target URL redacted, so the file is safe to share and
// parses back with ParsePlan.
func (p *Plan) MarshalResolved() ([]byte, error) {
	m := &yaml.Node{Kind: yaml.MappingNode}
	add := func(parent *yaml.Node, k string, v *yaml.Node) {
		parent.Content = append(parent.Content, scalar(k), v)
	}
	add(m, "name", scalar(p.Name))
	if p.Description != "" {
		add(m, "description", scalar(p.Description))
	}
	targets := &yaml.Node{Kind: yaml.MappingNode}
	for _, n := range p.TargetNames() {
		add(targets, n, scalar(Redact(p.Targets[n].URL)))
	}
	add(m, "targets", targets)
	if hn := marshalHosts(p.Hosts); hn != nil {
		add(m, "hosts", hn)
	}
	cases := &yaml.Node{Kind: yaml.SequenceNode}
	for _, rc := range p.ResolvedCases() {
		c := &yaml.Node{Kind: yaml.MappingNode}
		add(c, "id", scalar(rc.ID))
		if rc.Description != "" {
			add(c, "description", scalar(rc.Description))
		}
		add(c, "target", scalar(rc.TargetName))
		add(c, "workload", scalar(rc.Workload))
		add(c, "warmup", scalar(FmtDur(rc.Warmup)))
		add(c, "duration", scalar(FmtDur(rc.Duration)))
		add(c, "cooldown", scalar(FmtDur(rc.Cooldown)))
		if rc.ReportInterval > 0 {
			add(c, "report_interval", scalar(FmtDur(rc.ReportInterval)))
		}
		ladder := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, n := range rc.Ladder {
			ladder.Content = append(ladder.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(n)})
		}
		add(c, "ladder", ladder)
		keys := make([]string, 0, len(rc.Options))
		for k := range rc.Options {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			add(c, k, optionNode(rc.Options[k]))
		}
		cases.Content = append(cases.Content, c)
	}
	add(m, "cases", cases)
	if len(p.Compare) > 0 {
		cmp := &yaml.Node{Kind: yaml.SequenceNode}
		for _, c := range p.Compare {
			o := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
			add(o, "name", scalar(c.Name))
			add(o, "base", scalar(c.Base))
			add(o, "other", scalar(c.Other))
			cmp.Content = append(cmp.Content, o)
		}
		add(m, "compare", cmp)
	}
	return yaml.Marshal(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{m}})
}

// optionNode is a case option as the plan had it: a list when it had
// several items, else a string.
func optionNode(v string) *yaml.Node {
	items := registry.Items(v)
	if len(items) == 1 {
		return scalar(maskedProperty(v))
	}
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, e := range items {
		n.Content = append(n.Content, scalar(maskedProperty(e)))
	}
	return n
}

func scalar(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
}

// writePlan stores the resolved plan as DIR/plan.yaml.
func writePlan(dir string, p *Plan) error {
	b, err := p.MarshalResolved()
	if err != nil {
		return fmt.Errorf("write plan: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, PlanFile), b, 0o644); err != nil {
		return fmt.Errorf("write plan: %w", err)
	}
	return nil
}
