package results

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
)

// mergeSeries sums the partitions' per-second series by wall-clock second:
// every partition's t counts from the same agreed start instant, so the
// interval ending at second k of each partition is merged (phases kept
// apart: the tick at the end of warm-up is its own interval). Rates and
// counts add; avg_ms is count-weighted; p95/p99 are the largest (see
// SeriesLatencyMax). The merged interval's dur_s is the mean of the
// partitions' (their intervals cover the same wall-clock stretch, each
// measured by its own clock) and each op's per_sec its merged count over
// it, so the merged series is judged like a one-process run's (Steady); an
// interval no partition gave a dur_s (files from before it existed) keeps
// none.
func mergeSeries(parts []*Run) []Interval {
	type key struct {
		sec   int64
		phase string
	}
	type acc struct {
		iv   Interval
		tSum float64
		n    int
		dSum float64 // dur_s of the n intervals that have one
		nDur int
		wsum map[string]float64 // count-weighted avg_ms sums
	}
	buckets := map[key]*acc{}
	for _, p := range parts {
		for _, iv := range foldSameSecond(p.Series) {
			k := key{int64(math.Round(iv.T)), iv.Phase}
			a := buckets[k]
			if a == nil {
				a = &acc{iv: Interval{Phase: iv.Phase, Ops: map[string]IntervalOp{}}, wsum: map[string]float64{}}
				buckets[k] = a
			}
			a.tSum += iv.T
			a.n++
			if iv.DurS > 0 {
				a.dSum += iv.DurS
				a.nDur++
			}
			a.iv.TPS += iv.TPS
			a.iv.TpmC += iv.TpmC
			a.iv.Errors += iv.Errors
			for name, o := range iv.Ops {
				m := a.iv.Ops[name]
				m.Count += o.Count
				m.Errors += o.Errors
				m.P95MS = math.Max(m.P95MS, o.P95MS)
				m.P99MS = math.Max(m.P99MS, o.P99MS)
				a.wsum[name] += o.AvgMS * float64(o.Count)
				a.iv.Ops[name] = m
			}
		}
	}
	out := make([]Interval, 0, len(buckets))
	for _, a := range buckets {
		a.iv.T = math.Round(a.tSum/float64(a.n)*1000) / 1000
		a.iv.TPS = math.Round(a.iv.TPS*1000) / 1000
		if a.nDur > 0 {
			a.iv.DurS = math.Round(a.dSum/float64(a.nDur)*1000) / 1000
		}
		for name, m := range a.iv.Ops {
			if m.Count > 0 {
				m.AvgMS = math.Round(a.wsum[name]/float64(m.Count)*1000) / 1000
			}
			if a.iv.DurS > 0 {
				m.PerSec = math.Round(float64(m.Count)/a.iv.DurS*1000) / 1000
			}
			a.iv.Ops[name] = m
		}
		out = append(out, a.iv)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].T != out[j].T {
			return out[i].T < out[j].T
		}
		return out[i].Phase == "warmup" && out[j].Phase != "warmup"
	})
	return out
}

// foldSameSecond combines a partition's intervals that round to the same
// second and phase (a short drain after the window's last tick, a tick
// that came late) into one, so that mergeSeries sees each partition once
// per second: counts and errors add, dur_s adds, t is the later one's, the
// rates are the counts over the summed length (summed when an interval has
// no dur_s: files from before it existed), p95/p99 the larger, avg_ms
// count-weighted. Without it the merged second would add the partition's
// two rates and average its dur_s with the others' (the last second about
// 1.5x at two partitions).
func foldSameSecond(series []Interval) []Interval {
	out := make([]Interval, 0, len(series))
	at := map[[2]any]int{}
	for _, iv := range series {
		k := [2]any{math.Round(iv.T), iv.Phase}
		i, ok := at[k]
		if !ok {
			at[k] = len(out)
			cp := iv
			cp.Ops = make(map[string]IntervalOp, len(iv.Ops))
			for n, o := range iv.Ops {
				cp.Ops[n] = o
			}
			out = append(out, cp)
			continue
		}
		a := &out[i]
		if a.DurS > 0 && iv.DurS > 0 {
			d := a.DurS + iv.DurS
			a.TPS = (a.TPS*a.DurS + iv.TPS*iv.DurS) / d
			a.TpmC = (a.TpmC*a.DurS + iv.TpmC*iv.DurS) / d
			a.DurS = d
		} else {
			a.TPS += iv.TPS
			a.TpmC += iv.TpmC
			a.DurS = 0
		}
		a.T = math.Max(a.T, iv.T)
		a.Errors += iv.Errors
		for n, o := range iv.Ops {
			m := a.Ops[n]
			if c := m.Count + o.Count; c > 0 {
				m.AvgMS = (m.AvgMS*float64(m.Count) + o.AvgMS*float64(o.Count)) / float64(c)
			}
			m.Count += o.Count
			m.Errors += o.Errors
			m.P95MS = math.Max(m.P95MS, o.P95MS)
			m.P99MS = math.Max(m.P99MS, o.P99MS)
			if a.DurS > 0 {
				m.PerSec = float64(m.Count) / a.DurS
			}
			a.Ops[n] = m
		}
	}
	return out
}

// LocalRunIDPrefix starts the run id that `--processes` gives its child
// processes (partition.RunLocal); it refuses --run-id, so partitions whose
// run id has this prefix are local processes of one machine. It is the only
// record of where partitions ran: a result keeps no host name.
const LocalRunIDPrefix = "local-"

// mergeDriver adds the partitions' driver figures: CPU seconds and peak RSS
// are summed (all drivers together), CPU per transaction and per statement
// recomputed over the merged counts, the machine figures are the busiest
// partition's, the GC's share is the partitions' weighted by their CPU and
// its cycles summed (absent when a partition did not count them).
// Per-partition figures stay in Merged.Partitions.
//
// The driver-bound verdict depends on where the partitions ran:
//
//   - On one machine (onOneMachine: local processes of `--processes`, all
//     with the machine figures): the drivers competed for the same cores,
//     so the merged DriverSharePct is all partitions' driver cores (each
//     partition's DriverSharePct x MachineBusyPct x Cores) over the
//     machine's busy cores, at most 100, and [AssessDriver] judges those
//     figures, with the database local if a partition's target is
//     ([TargetIsLocal]); the note says the partitions were judged together.
//   - Otherwise (several load machines, or where they ran is not recorded):
//     DriverSharePct is the busiest partition's and the run is driver-bound
//     if a partition was, judged on its own machine's figures; the note
//     names each such partition and says so.
func mergeDriver(parts []*Run, transactions int64) *Driver {
	var out *Driver
	var stmtCPU, stmts, gcCPU float64
	var cycles int64
	cyclesAll := true
	var notes []string
	for _, p := range parts {
		d := p.Driver
		if d == nil {
			continue
		}
		if out == nil {
			out = &Driver{}
		}
		out.CPUUserS += d.CPUUserS
		out.CPUSysS += d.CPUSysS
		out.PeakRSSMB += d.PeakRSSMB
		gcCPU += d.GCSharePct * (d.CPUUserS + d.CPUSysS)
		if d.GCCycles != nil {
			cycles += *d.GCCycles
		} else {
			cyclesAll = false
		}
		if d.MachineBusyPct >= out.MachineBusyPct {
			out.MachineBusyPct, out.DriverSharePct, out.Cores = d.MachineBusyPct, d.DriverSharePct, d.Cores
		}
		if d.CPUPerStmtUS > 0 {
			cpu := (d.CPUUserS + d.CPUSysS) * 1e6
			stmtCPU += cpu
			stmts += cpu / d.CPUPerStmtUS
		}
		if out.SocketIO == "" { // the partitions run the same plan: the first says it
			out.SocketIO, out.GoMaxProcs, out.YieldMS, out.YieldBeforeWait, out.ParkLongWaitsMS = d.SocketIO, d.GoMaxProcs, d.YieldMS, d.YieldBeforeWait, d.ParkLongWaitsMS
		}
		if d.DriverBound {
			notes = append(notes, fmt.Sprintf("partition %d: %s", partIndex(p), d.DriverBoundNote))
		}
	}
	if out == nil {
		return nil
	}
	if transactions > 0 {
		out.CPUPerTxnUS = (out.CPUUserS + out.CPUSysS) * 1e6 / float64(transactions)
	}
	if stmts > 0 {
		out.CPUPerStmtUS = stmtCPU / stmts
	}
	if cpu := out.CPUUserS + out.CPUSysS; cpu > 0 {
		out.GCSharePct = gcCPU / cpu
	}
	if cyclesAll {
		out.GCCycles = &cycles
	}
	if onOneMachine(parts) {
		var driverCores float64
		dbLocal := false
		for _, p := range parts {
			d := p.Driver
			driverCores += d.DriverSharePct / 100 * d.MachineBusyPct / 100 * float64(d.Cores)
			dbLocal = dbLocal || TargetIsLocal(p)
		}
		busyCores := out.MachineBusyPct / 100 * float64(out.Cores)
		out.DriverSharePct = math.Min(100, driverCores/busyCores*100)
		AssessDriver(out, dbLocal)
		if out.DriverBound {
			out.DriverBoundNote = fmt.Sprintf("all %d partitions together (local processes on one machine): %s", len(parts), out.DriverBoundNote)
		}
		return out
	}
	out.DriverBound = len(notes) > 0
	if out.DriverBound {
		out.DriverBoundNote = strings.Join(notes, "; ") +
			" (each partition judged on its own load machine's figures: the result does not record that the partitions shared one)"
	}
	return out
}

// onOneMachine tells whether the partitions are known to have run on one
// machine and carry the figures to judge it whole: every run id has
// LocalRunIDPrefix, and every partition measured the machine (Cores and
// MachineBusyPct set, the same core count). Embedded SQLite is excluded:
// its engine's CPU is the driver's, so no driver-bound verdict is given.
func onOneMachine(parts []*Run) bool {
	if len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		d := p.Driver
		if p.Partition == nil || !strings.HasPrefix(p.Partition.RunID, LocalRunIDPrefix) || p.TargetKind == "sqlite" ||
			d == nil || d.Cores <= 0 || d.MachineBusyPct <= 0 || d.Cores != parts[0].Driver.Cores {
			return false
		}
	}
	return true
}

func partIndex(p *Run) int {
	if p.Partition == nil {
		return 0
	}
	return p.Partition.Index
}

// mergeChecks keeps the checks recomputed from the merged snapshot
// (response-time limits, the TPC-C audit and mix) and adds every other
// check the partitions ran (e.g. --check's consistency conditions), once:
// passed only if it passed in every partition; else the worst partition's
// copy (failed before not judged, the first of equals), its detail prefixed
// with that partition. Checks are matched by checkKey, so a partition's copy
// of a recomputed check is never carried beside the merged one.
func mergeChecks(recomputed []Check, parts []*Run) []Check {
	have := map[string]bool{}
	for _, c := range recomputed {
		have[checkKey(c.Name)] = true
	}
	out := recomputed
	idx := map[string]int{}
	for _, p := range parts {
		for _, c := range p.Checks {
			k := checkKey(c.Name)
			if have[k] {
				continue
			}
			if !c.Passed {
				c.Detail = fmt.Sprintf("partition %d: %s", p.Partition.Index, c.Detail)
			}
			i, ok := idx[k]
			if !ok {
				idx[k] = len(out)
				out = append(out, c)
				continue
			}
			if checkRank(c) > checkRank(out[i]) {
				out[i] = c
			}
		}
	}
	return out
}

// checkRank orders a check's outcomes from best to worst: passed (0), not
// judged (1), failed (2).
func checkRank(c Check) int {
	switch {
	case c.Passed:
		return 0
	case c.NotJudged:
		return 1
	}
	return 2
}

// checkKey is what identifies a check across the partitions and the merged
// run: its name, but "audit <figure>" for a TPC-C audit check, whose name
// may carry a bound that depends on the run's counts (files from before
// 2026-11-29 named the skipped-deliveries check "audit
// delivery_skipped_districts in [0, <bound>]", the bound 1 % of the
// partition's Deliveries), so that the merged run keeps one such check,
// judged on the merged figures.
func checkKey(name string) string {
	if rest, ok := strings.CutPrefix(name, "audit "); ok {
		if fig, _, found := strings.Cut(rest, " "); found {
			return "audit " + fig
		}
	}
	return name
}

// mergeExtra keeps the workload figures recomputed from the merged
// snapshot and, of the partitions' other extra entries, those that are the
// same in every partition; differing ones cannot be combined without their
// inputs and are left out rather than shown wrong.
func mergeExtra(recomputed map[string]any, parts []*Run) map[string]any {
	out := recomputed
	for k, v := range parts[0].Extra {
		if _, ok := out[k]; ok {
			continue
		}
		same := true
		for _, p := range parts[1:] {
			if !reflect.DeepEqual(v, p.Extra[k]) {
				same = false
				break
			}
		}
		if same {
			if out == nil {
				out = map[string]any{}
			}
			out[k] = v
		}
	}
	return out
}
