package sweep

import (
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

func (p *parser) cases(n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		p.add(n.Line, "cases must be a list")
		return
	}
	if len(n.Content) == 0 {
		p.add(n.Line, "cases: at least one case is required")
	}
	firstLine := map[string]int{}
	for i, cn := range n.Content {
		c := Case{line: cn.Line}
		where := fmt.Sprintf("case #%d", i+1)
		var idLine, targetLine int
		skip := map[string]func(k, v *yaml.Node){
			"id": func(k, v *yaml.Node) {
				c.ID, _ = p.str(v, where+": id")
				idLine = v.Line
			},
			"description": func(k, v *yaml.Node) { c.Description, _ = p.str(v, where+": description") },
			"target": func(k, v *yaml.Node) {
				c.Target, _ = p.str(v, where+": target")
				targetLine = v.Line
			},
			"overrides": func(k, v *yaml.Node) {
				p.pairs(v, where+": overrides", func(ok, ov *yaml.Node) {
					if c.Overrides.lines == nil {
						c.Overrides.lines = map[string]int{}
					}
					c.Overrides.lines[ok.Value] = ok.Line
					p.setting(&c.Overrides, ok, ov, where)
				})
			},
		}
		// The id is needed for messages, so find it first.
		if cn.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(cn.Content); j += 2 {
				if cn.Content[j].Value == "id" && cn.Content[j+1].Value != "" {
					where = fmt.Sprintf("case %q", cn.Content[j+1].Value)
				}
			}
		}
		s := p.settings(cn, where, skip)
		// Merge direct keys and overrides: overrides were applied to c.Overrides.
		c.Overrides = mergeSettings(s, c.Overrides)
		if cn.Kind != yaml.MappingNode {
			continue
		}
		switch {
		case c.ID == "":
			p.add(cn.Line, "%s: missing id", where)
		case checkCaseID(c.ID) != "":
			p.add(idLine, "%s", checkCaseID(c.ID))
		case firstLine[c.ID] > 0:
			p.add(idLine, "duplicate case id %q (first at line %d)", c.ID, firstLine[c.ID])
		default:
			firstLine[c.ID] = idLine
		}
		p.caseTarget(&c, where, cn.Line, targetLine)
		w := c.Overrides.Workload
		if w == "" {
			w = p.plan.Defaults.Workload
			if w == "" {
				p.add(cn.Line, "%s: no workload (set defaults.workload or the case's workload)", where)
			}
		} else if msg := CheckWorkload(w); msg != "" {
			p.add(c.Overrides.line("workload"), "%s: %s", where, msg)
		}
		p.plan.Cases = append(p.plan.Cases, c)
	}
}

// caseTarget checks the case's target; with a single target it may be omitted.
func (p *parser) caseTarget(c *Case, where string, caseLine, targetLine int) {
	if c.Target == "" {
		if len(p.plan.Targets) == 1 {
			c.Target = p.plan.TargetNames()[0]
			return
		}
		p.add(caseLine, "%s: missing target (known: %s)", where, strings.Join(p.plan.TargetNames(), ", "))
		return
	}
	if _, ok := p.plan.Targets[c.Target]; !ok {
		p.add(targetLine, "%s: unknown target %q (known: %s)", where, c.Target, strings.Join(p.plan.TargetNames(), ", "))
	}
}

// mergeSettings overlays b onto a (b wins).
func mergeSettings(a, b Settings) Settings {
	out := a
	if b.Workload != "" {
		out.Workload = b.Workload
	}
	if b.Warmup != nil {
		out.Warmup = b.Warmup
	}
	if b.Duration != nil {
		out.Duration = b.Duration
	}
	if b.Cooldown != nil {
		out.Cooldown = b.Cooldown
	}
	if b.ReportInterval != nil {
		out.ReportInterval = b.ReportInterval
	}
	if b.Ladder != nil {
		out.Ladder = b.Ladder
	}
	if len(b.Options) > 0 && out.Options == nil {
		out.Options = map[string]string{}
	}
	for k, v := range b.Options {
		out.Options[k] = v
	}
	if out.lines == nil {
		out.lines = map[string]int{}
	}
	for k, v := range b.lines {
		out.lines[k] = v
	}
	return out
}

var compareKeys = map[string]bool{"name": true, "base": true, "other": true}

func (p *parser) compare(n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		p.add(n.Line, "compare must be a list of [base, other] pairs or {name, base, other} objects")
		return
	}
	ids := map[string]bool{}
	for _, c := range p.plan.Cases {
		ids[c.ID] = true
	}
	known := make([]string, 0, len(ids))
	for id := range ids {
		known = append(known, id)
	}
	sort.Strings(known)
	for i, e := range n.Content {
		where := fmt.Sprintf("compare[%d]", i)
		var c Comparison
		switch e.Kind {
		case yaml.SequenceNode:
			if len(e.Content) != 2 {
				p.add(e.Line, "%s: a pair needs exactly two case ids (got %d)", where, len(e.Content))
				continue
			}
			c.Base, _ = p.str(e.Content[0], where+": base")
			c.Other, _ = p.str(e.Content[1], where+": other")
		case yaml.MappingNode:
			p.pairs(e, where, func(k, v *yaml.Node) {
				switch k.Value {
				case "name":
					c.Name, _ = p.str(v, where+": name")
				case "base":
					c.Base, _ = p.str(v, where+": base")
				case "other":
					c.Other, _ = p.str(v, where+": other")
				default:
					p.add(k.Line, "%s: unknown key %q (known: %s)", where, k.Value, knownList(compareKeys))
				}
			})
		default:
			p.add(e.Line, "%s: must be a pair [base, other] or {name, base, other}", where)
			continue
		}
		bad := false
		for _, id := range []string{c.Base, c.Other} {
			if id == "" {
				p.add(e.Line, "%s: needs both base and other", where)
				bad = true
				break
			}
			if !ids[id] {
				p.add(e.Line, "%s: unknown case %q (known: %s)", where, id, strings.Join(known, ", "))
				bad = true
			}
		}
		if !bad && c.Base == c.Other {
			p.add(e.Line, "%s: base and other are the same case %q", where, c.Base)
			bad = true
		}
		if c.Name == "" {
			c.Name = c.Base + " vs " + c.Other
		}
		if !bad {
			p.plan.Compare = append(p.plan.Compare, c)
		}
	}
}
