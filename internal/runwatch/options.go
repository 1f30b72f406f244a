// Package runwatch watches one benchmark run: the hosts and processes
// (internal/monitor) from before the terminals connect until the run ends,
// the database's counters at the measurement window's edges, and the live
// Prometheus metrics (--metrics-addr). Its Options are the watching flags of
// every `run` command and of `sweep`; the CLI binds them and calls Open
// around the command.
package runwatch

import (
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/monitor"
	"benchpress/internal/promout"
	"benchpress/internal/results"
	"benchpress/internal/usage"
)

// Options are the watching flags: --watch, --watch-interval, --watch-procs,
// --no-watch and --metrics-addr, plus the hosts a sweep plan adds.
type Options struct {
	specs       []string // raw --watch values
	interval    time.Duration
	procs       []string
	off         bool
	metricsAddr string

	hosts     []monitor.HostSpec // parsed --watch
	planHosts []monitor.HostSpec // set by sweep from the plan's hosts:
	prom      *promout.Server    // open while the command runs with --metrics-addr
}

// NewOptions returns the options of a command without watching flags (the
// defaults: watch the load machine every second).
func NewOptions() *Options { return &Options{interval: time.Second} }

// AddFlags adds the watching flags to fs, bound to o.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringArrayVar(&o.specs, "watch", nil, "watch a host: NAME[:ROLE]=URL[,URL] with its node_exporter and/or process-exporter /metrics URL(s) (repeatable); the load machine is always watched")
	fs.DurationVar(&o.interval, "watch-interval", time.Second, "host sampling interval")
	fs.StringSliceVar(&o.procs, "watch-procs", nil, "process names watched on the load machine (default "+strings.Join(monitor.DefaultProcessNames, ",")+")")
	fs.BoolVar(&o.off, "no-watch", false, "watch nothing: no host, process or database figures")
	fs.StringVar(&o.metricsAddr, "metrics-addr", "", "serve live Prometheus metrics on this loopback address (e.g. 127.0.0.1:9400) at /metrics\n(not with --processes, whose run happens in the child processes: run the partitions with --partition I/N, each with its own --metrics-addr)")
}

// MetricsAddr is the --metrics-addr given ("" when none): the address this
// process serves live metrics on while the command runs.
func (o *Options) MetricsAddr() string { return o.metricsAddr }

// Open validates the parsed flags (bad ones are *usage.Error) and, with
// --metrics-addr, starts serving the live metrics, announcing the address
// on errOut. The returned close stops serving; call it when the command
// ends.
func (o *Options) Open(errOut io.Writer) (close func(), err error) {
	hosts, err := ParseSpecs(o.specs)
	if err != nil {
		return nil, err
	}
	if o.interval <= 0 {
		return nil, usage.Errorf("--watch-interval must be positive (got %s)", o.interval)
	}
	o.hosts = hosts
	if o.metricsAddr == "" {
		return func() {}, nil
	}
	s, err := promout.Listen(o.metricsAddr, false)
	if err != nil {
		return nil, usage.Errorf("--metrics-addr: %v", err)
	}
	o.prom = s
	fmt.Fprintf(errOut, "live metrics on http://%s/metrics\n", s.Addr())
	return func() { _ = s.Close(); o.prom = nil }, nil
}

// SetPlanHosts adds a sweep plan's hosts: to the hosts every step watches.
// A plan host named like a --watch host is a usage error (two hosts of one
// name would leave every step unwatched).
func (o *Options) SetPlanHosts(hosts []monitor.HostSpec) error {
	seen := map[string]bool{}
	for _, h := range o.hosts {
		seen[h.Name] = true
	}
	for _, h := range hosts {
		if seen[h.Name] {
			return usage.Errorf("host %q is named twice (the plan's hosts: and --watch): give each watched host its own name", h.Name)
		}
		seen[h.Name] = true
	}
	o.planHosts = hosts
	return nil
}

// ParseSpecs parses --watch values: NAME[:ROLE]=URL[,URL...]. Every bad
// value is listed in one *usage.Error.
func ParseSpecs(specs []string) ([]monitor.HostSpec, error) {
	var out []monitor.HostSpec
	var errs []string
	seen := map[string]bool{}
	for _, s := range specs {
		left, urls, ok := strings.Cut(s, "=")
		name, role, _ := strings.Cut(left, ":")
		// Messages show the value without an exporter's basic-auth password.
		shown := left + "="
		for i, u := range strings.Split(urls, ",") {
			if i > 0 {
				shown += ","
			}
			shown += results.RedactHTTP(u)
		}
		if !ok || name == "" || urls == "" {
			errs = append(errs, fmt.Sprintf("--watch %q: want NAME[:ROLE]=URL[,URL]", shown))
			continue
		}
		if seen[name] {
			errs = append(errs, fmt.Sprintf("--watch %q: host %q is named twice", shown, name))
			continue
		}
		seen[name] = true
		h := monitor.HostSpec{Name: name, Role: role}
		for _, u := range strings.Split(urls, ",") {
			pu, err := url.Parse(u)
			if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
				errs = append(errs, fmt.Sprintf("--watch %q: %q is not an http(s) URL", shown, results.RedactHTTP(u)))
				continue
			}
			h.URLs = append(h.URLs, u)
		}
		out = append(out, h)
	}
	if len(errs) > 0 {
		return nil, usage.Errorf("%s", strings.Join(errs, "; "))
	}
	return out, nil
}
