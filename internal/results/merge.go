package results

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"time"

	"benchpress/internal/metrics"
)

// ErrNotMergeable is wrapped by every refusal of Merge.
var ErrNotMergeable = errors.New("results do not belong together")

// MergeOptions tune Merge.
type MergeOptions struct {
	// ExtraNames are the workload's counter names (Workload.Extras), the
	// order Summarize expects in the snapshot; nil takes the partitions'.
	ExtraNames []string
	// Summarize adds the workload's own figures (tpmC, QPS, audit,
	// response-time checks) from the merged snapshot, as a run does.
	Summarize func(r *Run, cum *metrics.Snapshot)
	// Slack is the timer slack allowed on top of the clock uncertainty
	// when windows are compared (default 500 ms).
	Slack time.Duration
	// Criteria judge the merged run (its verdict); the target rate is the
	// sum of the partitions' own.
	Criteria Criteria
}

// SeriesLatencyMax is Merged.SeriesLatency: how interval latencies combine.
const SeriesLatencyMax = "avg exact; p95/p99 are the largest of the partitions' (upper bound)"

// Merge combines all partitions of one partitioned run into one result, as
// if one process had run them: counts are summed and HDR histograms merged
// (never percentiles averaged), the summary and the workload figures are
// recomputed from the merged snapshot over the mean window length, the
// per-second series are summed by wall-clock second, and each partition's
// own figures (driver CPU, clock skew, window) are kept in Merged. It
// refuses (ErrNotMergeable, every problem listed) results that are not one
// run: no partition record, different workload, target kind, configuration,
// run id or partition count, overlapping or missing partitions, a status
// other than ok, or windows further apart than the clock uncertainty.
func Merge(parts []*Run, opts MergeOptions) (*Run, error) {
	if err := checkMergeable(parts); err != nil {
		return nil, err
	}
	sorted := append([]*Run(nil), parts...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Partition.Index < sorted[j].Partition.Index })
	spread, tol, err := checkWindows(sorted, opts.Slack)
	if err != nil {
		return nil, err
	}
	extraNames := opts.ExtraNames
	if extraNames == nil {
		extraNames = sorted[0].Partition.ExtraNames
	}
	p0 := sorted[0]
	names := make([]string, len(p0.Ops))
	for i, o := range p0.Ops {
		names[i] = o.Name
	}
	cum := metrics.NewSnapshot(len(names), len(extraNames))
	for _, p := range sorted {
		s, err := Snapshot(p, extraNames)
		if err != nil {
			return nil, fmt.Errorf("merge partition %d: %w", p.Partition.Index, err)
		}
		cum.Add(s)
	}
	secs := mergedSeconds(sorted)

	out := &Run{
		FormatVersion: FormatVersion, Tool: p0.Tool, Workload: p0.Workload,
		Target: joinTargets(sorted), TargetKind: p0.TargetKind, ServerVersion: p0.ServerVersion,
		Config: p0.Config, Status: "ok", WarmupS: p0.WarmupS,
		StartedAt: p0.StartedAt, EndedAt: p0.EndedAt,
	}
	Fill(out, cum, names, secs)
	if opts.Summarize != nil {
		opts.Summarize(out, cum)
	}
	m := &Merged{RunID: p0.Partition.RunID, WindowSpreadMS: ms(spread), ToleranceMS: ms(tol), SeriesLatency: SeriesLatencyMax}
	for _, p := range sorted {
		if p.StartedAt.Before(out.StartedAt) {
			out.StartedAt = p.StartedAt
		}
		if p.EndedAt.After(out.EndedAt) {
			out.EndedAt = p.EndedAt
		}
		out.Endpoints = addCounts(out.Endpoints, p.Endpoints)
		out.Clients = addCounts(out.Clients, p.Clients)
		out.Reconnects += p.Reconnects
		out.WarmupReconnects += p.WarmupReconnects
		out.WarmupErrors += p.WarmupErrors
		out.Abandoned += p.Abandoned
		out.ConnectS = math.Max(out.ConnectS, p.ConnectS)
		pp := p.Partition
		m.Partitions = append(m.Partitions, PartitionPart{
			Index: pp.Index, Terminals: pp.Terminals, WarehouseFrom: pp.WarehouseFrom, WarehouseTo: pp.WarehouseTo,
			Transactions: p.Summary.Transactions, TPS: p.Summary.TPS, TpmC: p.Summary.TpmC, DurationS: p.Summary.DurationS,
			ClockSkewMS: pp.ClockSkewMS, ClockRTTMS: pp.ClockRTTMS, WindowFrom: pp.WindowFrom, WindowTo: pp.WindowTo,
			Driver: p.Driver,
		})
	}
	out.Merged = m
	out.Series = mergeSeries(sorted)
	// Failed transactions too, as a single run divides (monitor.DriverFigures).
	out.Driver = mergeDriver(sorted, out.Summary.Transactions+out.Summary.Errors)
	out.Terminals = mergeTerminals(sorted)
	out.Checks = mergeChecks(out.Checks, sorted)
	out.Extra = mergeExtra(out.Extra, sorted)
	for _, p := range sorted {
		for _, n := range p.Notes {
			out.Notes = append(out.Notes, fmt.Sprintf("partition %d: %s", p.Partition.Index, n))
		}
	}
	mergeHealth(out, sorted, opts.Criteria)
	// Watch (host figures per run) is not merged: each partition watched
	// from its own load machine; the partitions' files keep it.
	return out, nil
}

// checkMergeable lists every reason parts are not the partitions of one run.
func checkMergeable(parts []*Run) error {
	if len(parts) == 0 {
		return fmt.Errorf("%w: no partitions given", ErrNotMergeable)
	}
	var errs []string
	for i, p := range parts {
		if p.Partition == nil {
			errs = append(errs, fmt.Sprintf("input %d is not a partition of a partitioned run (no \"partition\" record)", i+1))
		} else if p.Status != "ok" {
			errs = append(errs, fmt.Sprintf("partition %d ended %q, not ok (%s)", p.Partition.Index, p.Status, p.Error))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %s", ErrNotMergeable, strings.Join(errs, "; "))
	}
	p0 := parts[0]
	n := p0.Partition.Count
	seen := make(map[int]int)
	for i, p := range parts {
		pp := p.Partition
		same := func(what string, a, b any) {
			if !reflect.DeepEqual(a, b) {
				errs = append(errs, fmt.Sprintf("input %d has %s %v, input 1 has %v", i+1, what, b, a))
			}
		}
		same("partition count", n, pp.Count)
		same("workload", p0.Workload, p.Workload)
		same("target kind", p0.TargetKind, p.TargetKind)
		same("run id", p0.Partition.RunID, pp.RunID)
		same("warm-up", p0.WarmupS, p.WarmupS)
		same("operations", opNames(p0), opNames(p))
		same("counter names", p0.Partition.ExtraNames, pp.ExtraNames)
		if !reflect.DeepEqual(p0.Config, p.Config) {
			errs = append(errs, fmt.Sprintf("input %d has a different configuration (%s)", i+1, diffKeys(p0.Config, p.Config)))
		}
		if pp.Index < 0 || pp.Index >= n {
			errs = append(errs, fmt.Sprintf("input %d is partition %d, outside 0..%d", i+1, pp.Index, n-1))
		}
		if j, dup := seen[pp.Index]; dup {
			errs = append(errs, fmt.Sprintf("inputs %d and %d are both partition %d (overlapping)", j+1, i+1, pp.Index))
		}
		seen[pp.Index] = i
	}
	var missing []string
	for k := 0; k < n; k++ {
		if _, ok := seen[k]; !ok {
			missing = append(missing, fmt.Sprint(k))
		}
	}
	if len(missing) > 0 {
		errs = append(errs, fmt.Sprintf("partition(s) %s of %d missing", strings.Join(missing, ","), n))
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %s", ErrNotMergeable, strings.Join(errs, "; "))
	}
	return nil
}

// checkWindows compares the start instant and window of every pair of
// partitions (all on the server's clock): they may differ by at most half
// the two clock reads' round trips plus slack. It returns the largest
// difference (of any two partitions, not only against the first) and the
// largest tolerance.
func checkWindows(parts []*Run, slack time.Duration) (spread, tol time.Duration, err error) {
	if slack <= 0 {
		slack = 500 * time.Millisecond
	}
	var errs []string
	for i, p := range parts {
		for _, q := range parts[i+1:] {
			ref, pp := p.Partition, q.Partition
			t := time.Duration((ref.ClockRTTMS+pp.ClockRTTMS)/2*float64(time.Millisecond)) + slack
			tol = max(tol, t)
			for _, c := range []struct {
				what string
				a, b time.Time
			}{{"start", ref.StartAt, pp.StartAt}, {"window start", ref.WindowFrom, pp.WindowFrom}, {"window end", ref.WindowTo, pp.WindowTo}} {
				if c.what == "window end" && (ref.EndedByCount || pp.EndedByCount) {
					continue
				}
				d := c.b.Sub(c.a).Abs()
				spread = max(spread, d)
				if d > t {
					errs = append(errs, fmt.Sprintf("partition %d's %s is %s from partition %d's (allowed %s: clock uncertainty plus slack)",
						pp.Index, c.what, d.Round(time.Millisecond), ref.Index, t.Round(time.Millisecond)))
				}
			}
		}
	}
	if len(errs) > 0 {
		return 0, 0, fmt.Errorf("%w: windows do not line up: %s", ErrNotMergeable, strings.Join(errs, "; "))
	}
	return spread, tol, nil
}

// mergedSeconds is the merged window's length: the mean of the partitions'
// windows, which share their boundaries up to the clock uncertainty; when
// an operation count ended any partition's window, the span from the first
// start to the last end (the run took that long to do all the operations).
func mergedSeconds(parts []*Run) float64 {
	var sum float64
	byCount := false
	from, to := parts[0].Partition.WindowFrom, parts[0].Partition.WindowTo
	for _, p := range parts {
		sum += p.Summary.DurationS
		byCount = byCount || p.Partition.EndedByCount
		if p.Partition.WindowFrom.Before(from) {
			from = p.Partition.WindowFrom
		}
		if p.Partition.WindowTo.After(to) {
			to = p.Partition.WindowTo
		}
	}
	if byCount && to.After(from) {
		return to.Sub(from).Seconds()
	}
	return sum / float64(len(parts))
}

func opNames(r *Run) []string {
	out := make([]string, len(r.Ops))
	for i, o := range r.Ops {
		out[i] = o.Name
	}
	return out
}

func diffKeys(a, b map[string]any) string {
	var keys []string
	for k, v := range a {
		if !reflect.DeepEqual(v, b[k]) {
			keys = append(keys, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

func joinTargets(parts []*Run) string {
	var out []string
	seen := map[string]bool{}
	for _, p := range parts {
		if !seen[p.Target] {
			seen[p.Target] = true
			out = append(out, p.Target)
		}
	}
	return strings.Join(out, " ")
}

func addCounts(dst, src map[string]int64) map[string]int64 {
	if len(src) == 0 {
		return dst
	}
	if dst == nil {
		dst = map[string]int64{}
	}
	for k, v := range src {
		dst[k] += v
	}
	return dst
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/float64(time.Microsecond)) / 1000 }
