package sweep

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"gopkg.in/yaml.v3"
)

// LoadPlan reads and validates a plan file. Validation problems come back as
// a *PlanError listing every problem with its line.
func LoadPlan(path string) (*Plan, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read plan: %w", err)
	}
	return ParsePlan(filepath.Base(path), b)
}

// ParsePlan parses and validates plan YAML; file names the source in
// problems. It returns the plan (nil on error) or a *PlanError.
func ParsePlan(file string, data []byte) (*Plan, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		var te *yaml.TypeError
		msg := err.Error()
		if errors.As(err, &te) {
			msg = fmt.Sprint(te.Errors)
		}
		return nil, &PlanError{File: file, Problems: []Problem{{File: file, Msg: "not valid YAML: " + msg}}}
	}
	p := &parser{file: file, plan: &Plan{Targets: map[string]TargetDef{}}}
	if len(doc.Content) == 0 {
		p.add(0, "plan is empty")
	} else {
		p.top(doc.Content[0])
	}
	if len(p.problems) > 0 {
		// In file order: the option checks run after the structure's.
		sort.SliceStable(p.problems, func(i, j int) bool { return p.problems[i].Line < p.problems[j].Line })
		return nil, &PlanError{File: file, Problems: p.problems}
	}
	return p.plan, nil
}

// parser walks the YAML tree, collecting every problem instead of stopping.
type parser struct {
	file     string
	plan     *Plan
	problems []Problem
}

func (p *parser) add(line int, format string, args ...any) {
	p.problems = append(p.problems, Problem{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) warn(line int, format string, args ...any) {
	p.plan.Warnings = append(p.plan.Warnings, Problem{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)}.String())
}

// pairs iterates a mapping node's key/value pairs; it reports a non-mapping.
func (p *parser) pairs(n *yaml.Node, what string, fn func(k, v *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		p.add(n.Line, "%s must be a mapping", what)
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		fn(n.Content[i], n.Content[i+1])
	}
}

// str returns a scalar's value, reporting a non-scalar.
func (p *parser) str(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		p.add(n.Line, "%s must be a single value", what)
		return "", false
	}
	return n.Value, true
}

var topKeys = map[string]bool{"name": true, "description": true, "targets": true, "defaults": true, "ladder": true, "cases": true, "compare": true, "hosts": true}

func (p *parser) top(n *yaml.Node) {
	seen := map[string]bool{}
	var casesNode, compareNode *yaml.Node
	p.pairs(n, "the plan", func(k, v *yaml.Node) {
		if seen[k.Value] {
			p.add(k.Line, "duplicate key %q", k.Value)
		}
		seen[k.Value] = true
		switch k.Value {
		case "name":
			p.plan.Name, _ = p.str(v, "name")
		case "description":
			p.plan.Description, _ = p.str(v, "description")
		case "targets":
			p.targets(v)
		case "defaults":
			p.plan.Defaults = p.settings(v, "defaults", nil)
		case "ladder":
			p.plan.Ladder = p.ladder(v, "ladder")
		case "cases":
			casesNode = v
		case "compare":
			compareNode = v
		case "hosts":
			p.hosts(v)
		default:
			p.add(k.Line, "unknown key %q (known: %s)", k.Value, knownList(topKeys))
		}
	})
	if n.Kind != yaml.MappingNode {
		return
	}
	if p.plan.Name == "" {
		p.add(n.Line, "missing required key \"name\"")
	}
	if !seen["targets"] {
		p.add(n.Line, "missing required key \"targets\"")
	}
	if p.plan.Defaults.Workload != "" {
		if msg := CheckWorkload(p.plan.Defaults.Workload); msg != "" {
			p.add(p.plan.Defaults.line("workload"), "defaults: %s", msg)
		}
	}
	if casesNode == nil {
		p.add(n.Line, "missing required key \"cases\"")
	} else {
		p.cases(casesNode)
		p.checkOptions()
	}
	if compareNode != nil {
		p.compare(compareNode)
	}
}

var targetKeys = map[string]bool{"url": true, "password_env": true}

func (p *parser) targets(n *yaml.Node) {
	p.pairs(n, "targets", func(k, v *yaml.Node) {
		t := TargetDef{Name: k.Value}
		if _, dup := p.plan.Targets[t.Name]; dup {
			p.add(k.Line, "duplicate target %q", t.Name)
		}
		switch v.Kind {
		case yaml.ScalarNode:
			t.URL = v.Value
		case yaml.MappingNode:
			p.pairs(v, "target", func(tk, tv *yaml.Node) {
				switch tk.Value {
				case "url":
					t.URL, _ = p.str(tv, fmt.Sprintf("target %q url", t.Name))
				case "password_env":
					t.PasswordEnv, _ = p.str(tv, fmt.Sprintf("target %q password_env", t.Name))
				default:
					p.add(tk.Line, "target %q: unknown key %q (known: %s)", t.Name, tk.Value, knownList(targetKeys))
				}
			})
		default:
			p.add(v.Line, "target %q must be a URL or a mapping with url and password_env", t.Name)
		}
		if t.URL == "" {
			p.add(v.Line, "target %q: url is required", t.Name)
		} else if msg, inline := checkTargetURL(t.URL); msg != "" {
			p.add(v.Line, "target %q: %s", t.Name, msg)
		} else if msg := checkPasswordEnv(t); msg != "" {
			p.add(v.Line, "target %q: %s", t.Name, msg)
		} else if inline {
			p.warn(v.Line, "target %q has an inline password; prefer ${ENV_VAR} in the URL or password_env", t.Name)
		}
		p.plan.Targets[t.Name] = t
	})
	if n.Kind == yaml.MappingNode && len(n.Content) == 0 {
		p.add(n.Line, "targets: at least one target is required")
	}
}
