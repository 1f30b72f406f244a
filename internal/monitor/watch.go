package monitor

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"benchpress/internal/results"

	"github.com/shirou/gopsutil/v4/cpu"
)

// HostSpec names one watched host.
type HostSpec struct {
	Name string
	Role string // "load", "compute", "storage", "lb", ... (free text)
	// URLs are the host's node_exporter and/or process-exporter /metrics
	// pages (each page is used for what it holds). No URL means the local
	// host: gopsutil for the host figures, /proc for the processes.
	URLs []string
}

// Local reports whether the spec is the local host.
func (h HostSpec) Local() bool { return len(h.URLs) == 0 }

// WatchConfig configures [StartWatch].
type WatchConfig struct {
	Hosts []HostSpec
	// Processes are the command names watched on the local host
	// (DefaultProcessNames when empty). Remote hosts report the groups
	// their process-exporter is configured for.
	Processes []string
	Interval  time.Duration // default 1 s
	Client    *http.Client  // default: a client with no proxy
}

// reading is one sampling of a host: counters, process groups, or the error
// that made it a gap.
type reading struct {
	at       time.Time
	counters *Counters
	procs    map[string]ProcGroup
	// procsAt is when procs were read, when not at: a host's node and
	// process pages come from two exporters, and process-exporter (it
	// walks all of /proc and every process's smaps) answers in 0.1-0.4 s
	// on an idle machine and in seconds on a loaded one, node_exporter in
	// a few ms.
	procsAt time.Time
	// answer is how long the slowest of the reading's requests took
	// (remote hosts): each page is dated to the middle of its request, so
	// its instant is known to within half of it.
	answer time.Duration
	err    error // the host's figures failed: a gap for them
	// procsErr is why a reading whose host figures came has no process
	// groups (their exporter failed): a gap for the processes alone.
	procsErr error
}

// procsTime is when the reading's process groups were read.
func (r *reading) procsTime() time.Time {
	if !r.procsAt.IsZero() {
		return r.procsAt
	}
	return r.at
}

// hostWatch samples one host on its own goroutine.
type hostWatch struct {
	spec  HostSpec
	local localSource
	procs *localProcs // local host only
	cores int         // local host's logical CPUs, read once

	mu       sync.Mutex
	readings []reading
}

// Watcher samples every configured host once per interval, each host on its
// own goroutine, until Stop. It never touches the run's hot path: it reads
// only the hosts, on its ticker.
type Watcher struct {
	cfg    WatchConfig
	hosts  []*hostWatch
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once
	// ownClient: the watcher made cfg.Client and closes its connections.
	ownClient bool
}

// StartWatch takes a first reading of every host (the baseline) and keeps
// sampling until Stop or the end of ctx. A host that does not answer is not
// an error here: its readings become gaps that the summary shows.
func StartWatch(ctx context.Context, cfg WatchConfig) (*Watcher, error) {
	if cfg.Interval <= 0 {
		cfg.Interval = time.Second
	}
	own := cfg.Client == nil
	if own {
		cfg.Client = &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 2, IdleConnTimeout: time.Minute}}
	}
	seen := map[string]bool{}
	var errs []error
	for _, h := range cfg.Hosts {
		switch {
		case h.Name == "":
			errs = append(errs, errors.New("watch: a host has no name"))
		case seen[h.Name]:
			errs = append(errs, fmt.Errorf("watch: host %q named twice", h.Name))
		}
		seen[h.Name] = true
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	w := &Watcher{cfg: cfg, cancel: cancel, ownClient: own}
	for _, h := range cfg.Hosts {
		hw := &hostWatch{spec: h}
		if h.Local() {
			hw.procs = newLocalProcs(cfg.Processes)
		}
		w.hosts = append(w.hosts, hw)
	}
	var first sync.WaitGroup
	for _, hw := range w.hosts {
		first.Add(1)
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			hw.loop(ctx, &w.cfg, &first)
		}()
	}
	first.Wait()
	return w, nil
}

// Stop ends sampling and waits for the sampling goroutines. It may be
// called more than once.
func (w *Watcher) Stop() {
	w.once.Do(func() {
		w.cancel()
		w.wg.Wait()
		if w.ownClient {
			// Exporters keep idle connections open (no server idle
			// timeout): one watch per sweep step would pile them up.
			w.cfg.Client.CloseIdleConnections()
		}
	})
}

func (hw *hostWatch) loop(ctx context.Context, cfg *WatchConfig, first *sync.WaitGroup) {
	if hw.procs != nil {
		defer hw.procs.close()
	}
	hw.add(hw.read(ctx, cfg))
	first.Done()
	tick := time.NewTicker(cfg.Interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		r := hw.read(ctx, cfg)
		if ctx.Err() != nil {
			return // cut short by Stop: not a reading
		}
		hw.add(r)
	}
}

func (hw *hostWatch) add(r reading) {
	hw.mu.Lock()
	hw.readings = append(hw.readings, r)
	hw.mu.Unlock()
}

// read takes one reading of the host. A local partial failure (e.g. no
// disk counters) keeps what was read; a remote page that fails costs the
// figures no other page of the host gave (host counters, process groups).
func (hw *hostWatch) read(ctx context.Context, cfg *WatchConfig) reading {
	if hw.spec.Local() {
		c, err := hw.local.read(ctx)
		if hw.cores == 0 {
			if n, err := cpu.CountsWithContext(ctx, true); err == nil {
				hw.cores = n
			}
		}
		c.CPU.Cores = hw.cores
		r := reading{at: c.At, counters: &c}
		if err != nil && c.CPU.Total() == 0 {
			r.counters, r.err = nil, err
		}
		if p, perr := hw.procs.read(); perr == nil {
			r.procs = p
		} else {
			r.procsErr = perr
		}
		return r
	}
	ctx, cancel := context.WithTimeout(ctx, scrapeTimeout(cfg.Interval))
	defer cancel()
	// The pages are fetched at once; each reading is stamped with the middle
	// of its request, the best guess of when the exporter read the host. A
	// failed reading is dated to the start of its requests: dated to their
	// end (a timeout comes 5-20 s later) a host that died near the window's
	// end would fall after it and leave no gap.
	type page struct {
		url  string
		fams families
		at   time.Time
		took time.Duration
		err  error
	}
	start := time.Now()
	pages := make([]page, len(hw.spec.URLs))
	var wg sync.WaitGroup
	for i, u := range hw.spec.URLs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			fams, err := scrape(ctx, cfg.Client, u)
			took := time.Since(t0)
			pages[i] = page{url: results.RedactHTTP(u), fams: fams, at: t0.Add(took / 2), took: took, err: err}
		}()
	}
	wg.Wait()
	// Each page is used for what it holds, and fails for that alone: a
	// process-exporter too slow for the timeout (smaps of 2048 backends)
	// costs the process groups, not node_exporter's host figures.
	r := reading{at: start}
	var hostErr, procErr, anyErr error
	for _, p := range pages {
		if p.err != nil {
			anyErr = p.err
			continue
		}
		r.answer = max(r.answer, p.took)
		if c, err := nodeCounters(p.fams); err == nil {
			c.At = p.at
			r.counters = &c
			r.at = p.at
		} else if !errors.Is(err, errNotNode) {
			hostErr = fmt.Errorf("host %s: %s: %w", hw.spec.Name, p.url, err)
		}
		if g, ok := procCounters(p.fams); ok {
			r.procs, r.procsAt = g, p.at
		}
	}
	if anyErr != nil {
		// Which page failed is unknown when it never answered: a failed
		// page costs whichever kind of figure no other page gave.
		if r.counters == nil {
			hostErr = anyErr
		}
		if r.procs == nil {
			procErr = anyErr
		}
	}
	switch {
	case r.counters == nil && r.procs == nil:
		if hostErr == nil {
			hostErr = fmt.Errorf("host %s: no node_exporter or process-exporter metrics at %s", hw.spec.Name, redactedURLs(hw.spec.URLs))
		}
		return reading{at: start, err: hostErr}
	case r.counters == nil:
		r.at = r.procsAt
		if hostErr != nil {
			// node_exporter failed, process-exporter answered: the host's
			// figures have a gap, the process groups none.
			r.err = hostErr
		}
	case r.procs == nil && procErr != nil:
		r.procsErr = procErr
	}
	return r
}

// redactedURLs lists urls without their basic-auth passwords.
func redactedURLs(urls []string) string {
	out := make([]string, len(urls))
	for i, u := range urls {
		out[i] = results.RedactHTTP(u)
	}
	return strings.Join(out, " ")
}

// snapshot copies the readings so far.
func (hw *hostWatch) snapshot() []reading {
	hw.mu.Lock()
	defer hw.mu.Unlock()
	return append([]reading(nil), hw.readings...)
}
