package sweep

import (
	"fmt"
	"io"
	"net/url"
	"sort"

	"gopkg.in/yaml.v3"

	"benchpress/internal/monitor"
	"benchpress/internal/results"
)

var hostKeys = map[string]bool{"url": true, "urls": true, "role": true}

// hosts parses the plan's hosts: key, the machines watched during every
// step besides the load machine:
//
//	hosts:
//	  db-1: http://10.0.0.7:9100/metrics                 # node_exporter only
//	  proxy-1:
//	    role: compute
//	    url: [http://10.0.0.6:9100/metrics, http://10.0.0.6:9256/metrics]
//
// A url is a node_exporter and/or process-exporter /metrics page.
func (p *parser) hosts(n *yaml.Node) {
	p.pairs(n, "hosts", func(k, v *yaml.Node) {
		h := monitor.HostSpec{Name: k.Value}
		for _, prev := range p.plan.Hosts {
			if prev.Name == h.Name {
				p.add(k.Line, "duplicate host %q", h.Name)
			}
		}
		urls := func(v *yaml.Node) {
			switch v.Kind {
			case yaml.ScalarNode:
				h.URLs = append(h.URLs, v.Value)
			case yaml.SequenceNode:
				for _, e := range v.Content {
					if u, ok := p.str(e, fmt.Sprintf("host %q url", h.Name)); ok {
						h.URLs = append(h.URLs, u)
					}
				}
			default:
				p.add(v.Line, "host %q: url must be a URL or a list of URLs", h.Name)
			}
		}
		switch v.Kind {
		case yaml.ScalarNode:
			urls(v)
		case yaml.MappingNode:
			p.pairs(v, "host", func(hk, hv *yaml.Node) {
				switch hk.Value {
				case "url", "urls":
					urls(hv)
				case "role":
					h.Role, _ = p.str(hv, fmt.Sprintf("host %q role", h.Name))
				default:
					p.add(hk.Line, "host %q: unknown key %q (known: %s)", h.Name, hk.Value, knownList(hostKeys))
				}
			})
		default:
			p.add(v.Line, "host %q must be a URL or a mapping with url and role", h.Name)
		}
		if len(h.URLs) == 0 {
			p.add(v.Line, "host %q: url is required (its node_exporter and/or process-exporter /metrics page)", h.Name)
		}
		for _, u := range h.URLs {
			if pu, err := url.Parse(u); err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
				p.add(v.Line, "host %q: %q is not an http(s) URL", h.Name, u)
			}
		}
		p.plan.Hosts = append(p.plan.Hosts, h)
	})
}

// marshalHosts renders the hosts for the resolved plan (nil when none).
func marshalHosts(hosts []monitor.HostSpec) *yaml.Node {
	if len(hosts) == 0 {
		return nil
	}
	sorted := append([]monitor.HostSpec(nil), hosts...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	m := &yaml.Node{Kind: yaml.MappingNode}
	for _, h := range sorted {
		hn := &yaml.Node{Kind: yaml.MappingNode}
		if h.Role != "" {
			hn.Content = append(hn.Content, scalar("role"), scalar(h.Role))
		}
		us := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, u := range h.URLs {
			us.Content = append(us.Content, scalar(results.RedactHTTP(u)))
		}
		hn.Content = append(hn.Content, scalar("url"), us)
		m.Content = append(m.Content, scalar(h.Name), hn)
	}
	return m
}

// printHosts lists the watched hosts in a dry run.
func printHosts(w io.Writer, hosts []monitor.HostSpec) {
	fmt.Fprintln(w, "watch     the load machine (gopsutil, /proc)")
	for _, h := range hosts {
		role := ""
		if h.Role != "" {
			role = " (" + h.Role + ")"
		}
		us := make([]string, len(h.URLs))
		for i, u := range h.URLs {
			us[i] = results.RedactHTTP(u)
		}
		fmt.Fprintf(w, "watch     %s%s: %v\n", h.Name, role, us)
	}
}
