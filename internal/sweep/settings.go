package sweep

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"benchpress/internal/registry"
)

// settings parses a defaults/overrides mapping. Keys in skip are handled by
// the caller; every other unknown key is a workload option.
func (p *parser) settings(n *yaml.Node, where string, skip map[string]func(k, v *yaml.Node)) Settings {
	s := Settings{lines: map[string]int{}}
	p.pairs(n, where, func(k, v *yaml.Node) {
		if _, dup := s.lines[k.Value]; dup {
			p.add(k.Line, "%s: duplicate key %q", where, k.Value)
		}
		s.lines[k.Value] = k.Line
		if fn, ok := skip[k.Value]; ok {
			fn(k, v)
			return
		}
		p.setting(&s, k, v, where)
	})
	return s
}

// setting applies one key of a settings mapping.
func (p *parser) setting(s *Settings, k, v *yaml.Node, where string) {
	key := k.Value
	switch key {
	case "workload":
		s.Workload, _ = p.str(v, where+": workload")
	case "warmup", "cooldown", "report_interval":
		s.setDur(key, p.duration(v, where, key, false))
	case "duration":
		s.setDur(key, p.duration(v, where, key, true))
	case "ladder":
		s.Ladder = p.ladder(v, where+": ladder")
	default:
		if val, ok := p.option(v, where, key); ok {
			if s.Options == nil {
				s.Options = map[string]string{}
			}
			s.Options[key] = val
		}
	}
}

func (s *Settings) setDur(key string, d *time.Duration) {
	switch key {
	case "warmup":
		s.Warmup = d
	case "duration":
		s.Duration = d
	case "cooldown":
		s.Cooldown = d
	case "report_interval":
		s.ReportInterval = d
	}
}

// duration parses "30s", "2m", "1h30m" or a bare number of seconds.
func (p *parser) duration(v *yaml.Node, where, key string, positive bool) *time.Duration {
	raw, ok := p.str(v, where+": "+key)
	if !ok {
		return nil
	}
	d, err := time.ParseDuration(raw)
	if err != nil {
		secs, ierr := strconv.ParseFloat(raw, 64)
		if ierr != nil {
			p.add(v.Line, "%s: %s: bad duration %q (use e.g. 30s, 2m, 1h)", where, key, raw)
			return nil
		}
		d = time.Duration(secs * float64(time.Second))
	}
	switch {
	case d < 0:
		p.add(v.Line, "%s: %s must not be negative (got %s)", where, key, raw)
		return nil
	case positive && d == 0:
		p.add(v.Line, "%s: %s must be > 0", where, key)
		return nil
	}
	return &d
}

// ladder parses a list of positive, distinct concurrencies.
func (p *parser) ladder(v *yaml.Node, where string) []int {
	if v.Kind != yaml.SequenceNode {
		p.add(v.Line, "%s must be a list of concurrencies, e.g. [1, 8, 16, 64]", where)
		return nil
	}
	if len(v.Content) == 0 {
		p.add(v.Line, "%s is empty; list at least one concurrency", where)
		return nil
	}
	out := []int{}
	seen := map[int]bool{}
	for i, e := range v.Content {
		n, err := strconv.Atoi(e.Value)
		switch {
		case e.Kind != yaml.ScalarNode || err != nil:
			p.add(e.Line, "%s[%d]: %q is not an integer", where, i, e.Value)
		case n <= 0:
			p.add(e.Line, "%s[%d]: concurrency must be > 0 (got %d)", where, i, n)
		case seen[n]:
			p.add(e.Line, "%s[%d]: duplicate step %d", where, i, n)
		default:
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// option turns a workload option value into its string form: a scalar as
// is, a list's items and a mapping's sorted "k=v" entries joined with
// registry.ListSep (one repeated flag each; an item may contain commas).
func (p *parser) option(v *yaml.Node, where, key string) (string, bool) {
	switch v.Kind {
	case yaml.ScalarNode:
		return v.Value, true
	case yaml.SequenceNode:
		parts := make([]string, 0, len(v.Content))
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode {
				p.add(e.Line, "%s: option %q: list items must be single values", where, key)
				return "", false
			}
			parts = append(parts, e.Value)
		}
		return registry.JoinList(parts), true
	case yaml.MappingNode:
		var parts []string
		for i := 0; i+1 < len(v.Content); i += 2 {
			if v.Content[i+1].Kind != yaml.ScalarNode {
				p.add(v.Content[i+1].Line, "%s: option %q: values must be single values", where, key)
				return "", false
			}
			parts = append(parts, v.Content[i].Value+"="+v.Content[i+1].Value)
		}
		sort.Strings(parts)
		return registry.JoinList(parts), true
	}
	p.add(v.Line, "%s: option %q has an unsupported value", where, key)
	return "", false
}

// FmtDur formats a duration compactly for plans, dry runs and the sweep's
// estimate ("2m", "30s", "31m50s"); it parses back with time.ParseDuration.
func FmtDur(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
