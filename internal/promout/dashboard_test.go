package promout

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// TestDashboardReadsServedSeries checks that docs/grafana-dashboard.json is
// valid JSON and that every benchpress_* series its queries use is one this
// package serves.
func TestDashboardReadsServedSeries(t *testing.T) {
	b, err := os.ReadFile("../../docs/grafana-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatalf("dashboard is not valid JSON: %v", err)
	}
	served := map[string]bool{}
	ch := make(chan *prometheus.Desc, 32)
	NewLive().Describe(ch)
	close(ch)
	name := regexp.MustCompile(`fqName: "([a-z_]+)"`)
	for d := range ch {
		served[name.FindStringSubmatch(d.String())[1]] = true
	}
	used := regexp.MustCompile(`benchpress_[a-z_]+`)
	n := 0
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			for _, m := range used.FindAllString(tg.Expr, -1) {
				n++
				if !served[m] {
					t.Errorf("panel %q reads %s, which is not served (served: %v)", p.Title, m, served)
				}
			}
		}
	}
	if n < 5 {
		t.Errorf("dashboard reads only %d benchpress series", n)
	}
}
