package tpcc

import "fmt"

// ShardingReport is Run.Extra["sharding"] of a shard-aware run: the
// layout, the measured cross-shard transactions (committed New-Orders with
// a supplying warehouse on another shard than the home warehouse, committed
// Payments of a customer on another shard, counted from the keys the
// statements used) and, with perfect sharding, the deviation from the
// specification it is.
type ShardingReport struct {
	Shards             int     `json:"shards"`
	Placement          string  `json:"placement"`
	WarehousesPerShard []int   `json:"warehouses_per_shard"`
	Perfect            bool    `json:"perfect_sharding"`
	CrossShardNewOrder int64   `json:"cross_shard_new_order"`
	CrossShardPayment  int64   `json:"cross_shard_payment"`
	CrossShardTxns     int64   `json:"cross_shard_txns"`
	CrossShardPct      float64 `json:"cross_shard_pct"` // of completed New-Orders + Payments
	RemoteLinePct      float64 `json:"remote_line_pct"`
	RemotePaymentPct   float64 `json:"remote_payment_pct"`
	// Deviation is set with perfect sharding: the clauses it departs from
	// and the measured remote shares.
	Deviation string `json:"deviation,omitempty"`
}

// shardingReport builds the report from the window's counters: ex reads an
// extra counter, newOrders and payments are the completed transactions,
// lines the order lines of the completed New-Orders.
func (w *Workload) shardingReport(ex func(int) int64, newOrders, payments, lines int64) ShardingReport {
	s := w.cfg.Sharding
	r := ShardingReport{Shards: s.Shards, Placement: s.String(), Perfect: s.Perfect,
		CrossShardNewOrder: ex(exCrossShardNewOrder), CrossShardPayment: ex(exCrossShardPayment)}
	for _, p := range w.layout.peers {
		r.WarehousesPerShard = append(r.WarehousesPerShard, len(p))
	}
	r.CrossShardTxns = r.CrossShardNewOrder + r.CrossShardPayment
	if d := newOrders + payments; d > 0 {
		r.CrossShardPct = roundPct(100 * float64(r.CrossShardTxns) / float64(d))
	}
	if lines > 0 {
		r.RemoteLinePct = roundPct(100 * float64(ex(exNewOrderRemoteLines)) / float64(lines))
	}
	if payments > 0 {
		r.RemotePaymentPct = roundPct(100 * float64(ex(exPaymentRemote)) / float64(payments))
	}
	if s.Perfect {
		r.Deviation = fmt.Sprintf("perfect sharding: remote order lines (clause 2.4.1.5, measured %.2f %%) and remote "+
			"payments (clause 2.5.1.2, measured %.2f %%) were drawn only from the home warehouse's shard, not from all "+
			"warehouses; %d cross-shard transactions measured", r.RemoteLinePct, r.RemotePaymentPct, r.CrossShardTxns)
	}
	return r
}
