package sweep

import (
	"reflect"
	"strings"
	"testing"

	"benchpress/internal/monitor"
)

func TestParseHosts(t *testing.T) {
	plan := minimalPlan + `hosts:
  db-1: http://10.0.0.7:9100/metrics
  proxy-1:
    role: compute
    url: [http://10.0.0.6:9100/metrics, http://10.0.0.6:9256/metrics]
`
	p, err := ParsePlan("poc.yaml", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	want := []monitor.HostSpec{
		{Name: "db-1", URLs: []string{"http://10.0.0.7:9100/metrics"}},
		{Name: "proxy-1", Role: "compute", URLs: []string{"http://10.0.0.6:9100/metrics", "http://10.0.0.6:9256/metrics"}},
	}
	if !reflect.DeepEqual(p.Hosts, want) {
		t.Fatalf("hosts = %+v, want %+v", p.Hosts, want)
	}
	// The resolved plan keeps them and parses back to the same hosts.
	b, err := p.MarshalResolved()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParsePlan("plan.yaml", b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if !reflect.DeepEqual(back.Hosts, want) {
		t.Errorf("round trip hosts = %+v", back.Hosts)
	}
	// An exporter behind basic auth: saved without its password.
	p, err = ParsePlan("poc.yaml", []byte(minimalPlan+"hosts:\n  db-1: http://prom:s3cret@10.0.0.7:9100/metrics\n"))
	if err != nil {
		t.Fatal(err)
	}
	if b, err = p.MarshalResolved(); err != nil || strings.Contains(string(b), "s3cret") || !strings.Contains(string(b), "http://prom@10.0.0.7:9100/metrics") {
		t.Errorf("resolved plan with an exporter password: %v\n%s", err, b)
	}
}

func TestParseHostsProblems(t *testing.T) {
	tests := []struct{ name, hosts, want string }{
		{"no url", "  db: {role: storage}\n", `host "db": url is required`},
		{"not http", "  db: ftp://x/metrics\n", `host "db": "ftp://x/metrics" is not an http(s) URL`},
		{"unknown key", "  db: {url: http://x:9100/metrics, rol: storage}\n", `host "db": unknown key "rol"`},
		{"not a mapping", "  - db\n", "hosts must be a mapping"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePlan("p.yaml", []byte(minimalPlan+"hosts:\n"+tc.hosts))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
