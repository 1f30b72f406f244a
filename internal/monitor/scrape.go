package monitor

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"benchpress/internal/results"
)

// families is one scrape of a Prometheus text endpoint, by metric name.
type families map[string]*dto.MetricFamily

// scrape fetches url (a node_exporter or process-exporter /metrics page) and
// parses it with expfmt's text parser. The error names the URL (without
// its basic-auth password: errors are saved and shown) and keeps
// the HTTP status or the parser's message.
func scrape(ctx context.Context, client *http.Client, url string) (families, error) {
	shown := results.RedactHTTP(url)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		// url.Error quotes the whole URL, password included.
		return nil, fmt.Errorf("scrape %s: not a valid URL", shown)
	}
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("scrape %s: %w", shown, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		return nil, fmt.Errorf("scrape %s: HTTP %s", shown, resp.Status)
	}
	fams, err := parseFamilies(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("scrape %s: %w", shown, err)
	}
	return fams, nil
}

// parseFamilies parses a Prometheus text exposition page.
func parseFamilies(r io.Reader) (families, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	return p.TextToMetricFamilies(r)
}

// label returns the value of label name on m ("" when absent).
func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// value is a counter's, gauge's or untyped metric's value.
func value(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.GetCounter().GetValue()
	case m.Gauge != nil:
		return m.GetGauge().GetValue()
	case m.Untyped != nil:
		return m.GetUntyped().GetValue()
	}
	return 0
}

// each calls fn for every metric of the family name (none when absent).
func (f families) each(name string, fn func(m *dto.Metric, v float64)) bool {
	fam, ok := f[name]
	if !ok {
		return false
	}
	for _, m := range fam.GetMetric() {
		fn(m, value(m))
	}
	return true
}

// scrapeTimeout bounds one scrape: twice the sampling interval, but at
// least 5 s (process-exporter walks all of /proc and can take seconds on a
// loaded host; a slow reading only skips ticks, its rates use its own time)
// and at most 20 s.
func scrapeTimeout(interval time.Duration) time.Duration {
	return min(20*time.Second, max(5*time.Second, 2*interval))
}
