package tpcc

import (
	"math"
	"strconv"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
)

// responseLimits are the 90th-percentile response-time limits (clause
// 5.2.5.3, §1.7): 5 s, Stock-Level 20 s. Delivery runs inline: its
// response time is the whole execution, which the spec bounds at 80 s
// (clause 5.2.5.4, the deferred execution; tpcc-mysql's RTIME_DELIVERY);
// its 5 s bound is on queuing the request, which an inline Delivery has
// not.
var responseLimits = [NumOps]time.Duration{
	OpNewOrder: 5 * time.Second, OpPayment: 5 * time.Second, OpOrderStatus: 5 * time.Second,
	OpDelivery: 80 * time.Second, OpStockLevel: 20 * time.Second,
}

// AuditFigure is one input-distribution audit figure (clause 9.2, §1.9) as
// written to Run.Extra["audit"]: the measured value, the accepted range, and
// whether it lies inside. Samples is the denominator's size; small samples
// make the percentages noisy.
type AuditFigure struct {
	Value   float64 `json:"value"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	OK      bool    `json:"ok"`
	Samples int64   `json:"samples"`
}

func auditFig(num, den int64, scale, min, max float64) AuditFigure {
	f := AuditFigure{Min: min, Max: max, Samples: den}
	if den > 0 {
		f.Value = roundPct(scale * float64(num) / float64(den))
	}
	f.OK = den > 0 && f.Value >= min && f.Value <= max
	return f
}

func roundPct(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// Summarize adds the TPC-C headline figures (§1.9) to r: tpmC (New-Orders
// completed in the measurement window, committed plus spec rollbacks, per
// minute of r.Summary.DurationS), the New-Order split, efficiency against
// 12.86 × W when keying/think times are on, one check per transaction
// against its 90th-percentile limit, and the audit figures in
// r.Extra["audit"].
func (w *Workload) Summarize(r *results.Run, cum *metrics.Snapshot) {
	if cum == nil || len(cum.Counts) < NumOps {
		return
	}
	no := cum.Counts[OpNewOrder]
	completed := no.OK + no.Rollback
	s := &r.Summary
	s.NewOrderCommitted = no.OK
	s.NewOrderRolledBack = no.Rollback
	if completed > 0 {
		s.NewOrderRollbackPct = roundPct(100 * float64(no.Rollback) / float64(completed))
	}
	if s.DurationS > 0 {
		s.TpmC = float64(completed) / (s.DurationS / 60)
		if w.cfg.Wait && w.w > 0 {
			// A partition's tpmC is its terminals' share: its efficiency
			// is over them and their home warehouses, not over the whole
			// run's (config).
			terminals, warehouses := configInt(r.Config, "terminals"), w.w
			if p := r.Partition; p != nil && p.Terminals > 0 {
				terminals = p.Terminals
				if p.WarehouseTo >= p.WarehouseFrom && p.WarehouseFrom > 0 {
					warehouses = p.WarehouseTo - p.WarehouseFrom + 1
				}
			}
			s.Efficiency, s.EfficiencyNote = efficiency(s.TpmC, completed, terminals, warehouses)
		}
	}
	fillSeriesTpmC(r.Series)

	for op := 0; op < NumOps; op++ {
		limit := responseLimits[op]
		c := results.Check{Name: "p90 " + OpNames[op] + " <= " + limit.String(), Passed: true}
		h := cum.OKHist[op]
		if h == nil || h.TotalCount() == 0 {
			c.Passed, c.NotJudged = false, true
			c.Detail = "not judged: no completed transactions"
		} else {
			p90 := time.Duration(h.ValueAtQuantile(90)) * time.Microsecond
			c.Passed = p90 <= limit
			c.Detail = "p90 " + strconv.FormatFloat(float64(p90)/float64(time.Millisecond), 'f', 1, 64) + " ms over " +
				strconv.FormatInt(h.TotalCount(), 10) + " transactions"
		}
		r.Checks = append(r.Checks, c)
	}

	ex := func(i int) int64 {
		if i < len(cum.Extra) {
			return cum.Extra[i]
		}
		return 0
	}
	pay := cum.Counts[OpPayment].OK
	ost := cum.Counts[OpOrderStatus].OK
	dlv := cum.Counts[OpDelivery].OK
	lines := ex(exNewOrderLines)
	audit := map[string]any{
		"new_order_rollback_pct":    auditFig(no.Rollback, completed, 100, 0.9, 1.1),
		"new_order_avg_lines":       auditFig(lines, completed, 1, 9.5, 10.5),
		"new_order_remote_line_pct": auditFig(ex(exNewOrderRemoteLines), lines, 100, 0.95, 1.05),
		"order_status_by_name_pct":  auditFig(ex(exOrderStatusByName), ost, 100, 57, 63),
		"payment_by_name_pct":       auditFig(ex(exPaymentByName), pay, 100, 57, 63),
		// Skipped deliveries: at most 1 % of Deliveries, or 1 if greater.
		"delivery_skipped_districts": AuditFigure{Value: float64(ex(exDeliverySkipped)), Min: 0,
			Max: math.Max(1, 0.01*float64(dlv)), OK: float64(ex(exDeliverySkipped)) <= math.Max(1, 0.01*float64(dlv)), Samples: dlv},
		"c_last_c_load": w.meta.CLoadLast,
		"c_last_c_run":  w.cRun,
		"warehouses":    w.w,
	}
	if w.w > 1 {
		audit["payment_remote_pct"] = auditFig(ex(exPaymentRemote), pay, 100, 14, 16)
	} else {
		audit["payment_remote_pct"] = AuditFigure{Samples: pay, OK: true} // always local with W = 1
		lf := audit["new_order_remote_line_pct"].(AuditFigure)
		lf.Min, lf.Max, lf.OK = 0, 0, ex(exNewOrderRemoteLines) == 0
		audit["new_order_remote_line_pct"] = lf
	}
	var total int64
	for op := 0; op < NumOps; op++ {
		total += cum.Counts[op].OK + cum.Counts[op].Rollback
	}
	mix := map[string]float64{}
	for op := 0; op < NumOps; op++ {
		if total > 0 {
			mix[OpNames[op]] = roundPct(100 * float64(cum.Counts[op].OK+cum.Counts[op].Rollback) / float64(total))
		}
	}
	audit["mix_pct"] = mix
	r.Checks = append(r.Checks, auditChecks(audit)...)
	r.Checks = append(r.Checks, w.mixChecks(cum, total, configInt(r.Config, "terminals"))...)
	if r.Extra == nil {
		r.Extra = map[string]any{}
	}
	r.Extra["audit"] = audit
	if w.cfg.Sharding.Enabled() {
		r.Extra["sharding"] = w.shardingReport(ex, completed, pay, lines)
	}
}

// Statements is the number of statement round trips (BEGIN/COMMIT
// included) sent in the measurement window.
func (w *Workload) Statements(cum *metrics.Snapshot) int64 {
	if cum == nil || exStatements >= len(cum.Extra) {
		return 0
	}
	return cum.Extra[exStatements]
}
