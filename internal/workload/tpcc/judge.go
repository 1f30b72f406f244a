package tpcc

import (
	"fmt"
	"math"
	"sort"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
)

// efficiency is tpmC against the ceiling the spec allows with keying and
// think times (clause 4.2: 12.86 tpmC per warehouse, which assumes 10
// terminals per warehouse). With another terminal count the ceiling scales
// with the terminals, 12.86 × W × terminals / (10 × W); with the count
// unknown no figure is given. The note names the New-Orders it rests on.
//
// terminals and warehouses are the run's, or a partition's share of them.
func efficiency(tpmC float64, newOrders int64, terminals, warehouses int) (float64, string) {
	if terminals <= 0 {
		return 0, "efficiency not given: the terminal count is unknown"
	}
	ceiling := MaxTpmCPerWarehouse * float64(terminals) / TerminalsPerWarehouse
	note := fmt.Sprintf("against 12.86 x %d warehouse(s), on %d New-Orders", warehouses, newOrders)
	if terminals != TerminalsPerWarehouse*warehouses {
		note = fmt.Sprintf("against 12.86 x W x terminals/(10 x W) = %.2f tpmC (%d terminals on %d warehouse(s), not 10 per warehouse), on %d New-Orders",
			ceiling, terminals, warehouses, newOrders)
	}
	return 100 * tpmC / ceiling, note
}

// fillSeriesTpmC sets each interval's tpmC: New-Orders completed in it per
// minute of its length.
func fillSeriesTpmC(series []results.Interval) {
	prev := 0.0
	for i := range series {
		iv := &series[i]
		dur := iv.DurS
		if dur <= 0 {
			dur = iv.T - prev
		}
		prev = iv.T
		if dur > 0 {
			iv.TpmC = math.Round(float64(iv.Ops[OpNames[OpNewOrder]].Count)/dur*60*10) / 10
		}
	}
}

// configInt reads an integer from a result's config (an int when built,
// a float64 when read back from JSON).
func configInt(cfg map[string]any, key string) int {
	switch v := cfg[key].(type) {
	case int:
		return v
	case int64:
		return int(v)
	case float64:
		return int(v)
	}
	return 0
}

// Judging a sampled figure against the spec's bounds (clause 9.2 input
// distributions). An honest generator's measured share wanders around the
// bounds' centre by σ = sd/√n. Two thresholds keep both verdicts true:
//   - passZ: a figure is judged at all only when passZ·σ fits in the bounds'
//     half-width (below that even an honest generator often lands outside);
//   - failZ: a figure outside the bounds FAILs only when it lies more than
//     failZ·σ from the centre, so an honest generator fails about once in
//     1.7 million checks (two-sided 5σ) instead of once in 370 (3σ), which
//     a suite of hundreds of short runs, or a user's nightly sweep, hits.
//
// A figure outside the bounds but within failZ·σ is "not judged" and says
// how many samples would settle it.
const (
	passZ = 3.0
	failZ = 5.0
)

// sdLinesPerOrder is the standard deviation of O_OL_CNT, uniform on 5..15
// (clause 2.4.1.3): sqrt((11²−1)/12) = sqrt(10).
var sdLinesPerOrder = math.Sqrt(10)

// samplesToJudge is how many observations a figure with per-sample
// standard deviation sd needs before z·sd/√n fits in d.
func samplesToJudge(sd, d, z float64) int64 {
	return int64(math.Ceil(z * z * sd * sd / (d * d)))
}

// skippedDeliveriesCheck names the skipped-deliveries audit check. Its
// bound, at most 1 % of the Deliveries or 1 if greater, depends on the
// run's Delivery count, so the name states the rule and the detail the
// bound: a partition's check and the merged run's have the same name
// (files from before 2026-11-29 named it "audit
// delivery_skipped_districts in [0, <bound>]").
const skippedDeliveriesCheck = "audit delivery_skipped_districts <= max(1, 1 % of Deliveries)"

// auditChecks turns the audit figures (clause 9.2 input distributions)
// into checks: PASS when the sample can tell and the figure is within its
// bounds, FAIL when it is outside them beyond sampling noise, else "not
// judged" with the count it would need. Each check is named "audit
// <figure> ..." with the figure's key (results' merge matches audit checks
// on it).
func auditChecks(audit map[string]any) []results.Check {
	keys := make([]string, 0, len(audit))
	for k, v := range audit {
		if _, ok := v.(AuditFigure); ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []results.Check
	for _, k := range keys {
		f := audit[k].(AuditFigure)
		if f.Min == 0 && f.Max == 0 && f.OK && k != "new_order_remote_line_pct" {
			continue // not applicable (payment_remote_pct with one warehouse)
		}
		if k == "delivery_skipped_districts" {
			out = append(out, results.Check{Name: skippedDeliveriesCheck, Passed: f.OK,
				Detail: fmt.Sprintf("%g skipped over %d Deliveries, at most %g allowed", f.Value, f.Samples, f.Max)})
			continue
		}
		c := results.Check{Name: fmt.Sprintf("audit %s in [%g, %g]", k, f.Min, f.Max), Passed: f.OK,
			Detail: fmt.Sprintf("%g over %d samples", f.Value, f.Samples)}
		if f.Max > f.Min {
			judgeSampled(&c, f, k == "new_order_avg_lines")
		}
		out = append(out, c)
	}
	return out
}

// judgeSampled applies passZ and failZ to one figure: a mean of lines per
// order when mean is set, else a share in percent.
func judgeSampled(c *results.Check, f AuditFigure, mean bool) {
	centre, half := (f.Min+f.Max)/2, (f.Max-f.Min)/2
	sd := sdLinesPerOrder
	if !mean {
		p := centre / 100
		sd = 100 * math.Sqrt(p*(1-p))
	}
	if need := samplesToJudge(sd, half, passZ); f.Samples < need {
		c.Passed, c.NotJudged = false, true
		c.Detail = fmt.Sprintf("not judged: %g over %d samples, %d needed to judge the bounds", f.Value, f.Samples, need)
		return
	}
	if f.OK {
		return
	}
	sigmas := math.Abs(f.Value-centre) / (sd / math.Sqrt(float64(f.Samples)))
	if sigmas <= failZ {
		c.NotJudged = true
		c.Detail = fmt.Sprintf("not judged: %g over %d samples is outside the bounds but within sampling noise (%.1f σ from %g); %d samples needed to judge it",
			f.Value, f.Samples, sigmas, centre, samplesToJudge(sd, half, failZ))
		return
	}
	c.Detail = fmt.Sprintf("%g over %d samples, %.1f σ from %g", f.Value, f.Samples, sigmas, centre)
}

// mixMinimums are clause 5.2.3's minimum shares of the mix, in percent.
var mixMinimums = [NumOps]float64{OpPayment: 43, OpOrderStatus: 4, OpDelivery: 4, OpStockLevel: 4}

// mixChecks compares the measured mix (transactions completed in the
// window) with clause 5.2.3's minimums. A deck deals exact shares per deck
// (clause 5.2.4.2), but at each edge of the window every terminal may be
// anywhere in its deck with one card in flight, so the count of an op is
// uncertain by up to 2 × terminals × (its cards per deck + 1). The check is
// judged only when that moves the share by under half a percentage point
// (and with at least 1000 transactions), and then passes when the share is
// at least the minimum minus that uncertainty.
func (w *Workload) mixChecks(cum *metrics.Snapshot, total int64, terminals int) []results.Check {
	var cards [NumOps]int
	for _, op := range w.deck {
		cards[op]++
	}
	var out []results.Check
	for op, min := range mixMinimums {
		if min == 0 {
			continue
		}
		c := results.Check{Name: fmt.Sprintf("mix %s >= %g %% (clause 5.2.3)", OpNames[op], min)}
		var share float64
		slack := 100.0
		if total > 0 {
			share = 100 * float64(cum.Counts[op].OK+cum.Counts[op].Rollback) / float64(total)
			if terminals > 0 {
				slack = 100 * 2 * float64(terminals*(cards[op]+1)) / float64(total)
			}
		}
		switch {
		case total < 1000:
			c.NotJudged = true
			c.Detail = fmt.Sprintf("not judged: %d transactions, 1000 needed", total)
		case slack > 0.5:
			// The bound can exceed 100 points on a short run (454 points
			// through a proxy at 64 terminals): say how many transactions
			// would bring it under half a point instead.
			need := int64(400 * terminals * (cards[op] + 1))
			c.NotJudged = true
			c.Detail = fmt.Sprintf("not judged: %.2f %% of %d transactions, %d needed to judge (the decks of %d terminals at the window's edges)",
				share, total, need, terminals)
		default:
			c.Passed = share >= min-slack
			c.Detail = fmt.Sprintf("%.2f %% of %d transactions (±%.2f)", share, total, slack)
		}
		out = append(out, c)
	}
	return out
}
