package tpcc

import (
	"context"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

// stockLevel holds the Stock-Level statements and reused buffers.
type stockLevel struct {
	selNextOID, countLow target.Stmt

	threshold int
	nextOID   int64
	lowStock  int64
	dNext     []any
	dCount    []any
	a2        []any
	a6        []any
}

func (s *stockLevel) prepare(p *preparer) {
	s.selNextOID = p.stmt("SELECT d_next_o_id FROM {district} WHERE d_w_id = ? AND d_id = ?")
	s.countLow = p.stmt("SELECT COUNT(DISTINCT s.s_i_id) FROM {order_line} ol JOIN {stock} s ON s.s_w_id = ? AND s.s_i_id = ol.ol_i_id" +
		" WHERE ol.ol_w_id = ? AND ol.ol_d_id = ? AND ol.ol_o_id >= ? AND ol.ol_o_id < ? AND s.s_quantity < ?")
	s.dNext = []any{&s.nextOID}
	s.dCount = []any{&s.lowStock}
	s.a2, s.a6 = make([]any, 2), make([]any, 6)
}

// stockLevel runs clause 2.8.2 for the terminal's fixed district (clause
// 2.8.1.1) in its own read-only transaction: the number of distinct items of
// the district's last 20 orders whose stock at the HOME warehouse is below a
// threshold of random(10, 20). Committed reads suffice (clause 3.4).
func (t *Terminal) stockLevel(ctx context.Context, fresh bool) (metrics.Outcome, error) {
	const txn = "stock_level"
	s := &t.sl
	if fresh {
		s.threshold = t.r.Range(10, 20)
	}
	if err := t.begin(ctx, false); err != nil {
		return t.fail(ctx, txn, "begin", err)
	}
	s.a2[0], s.a2[1] = &t.w64, t.dID
	if err := t.row(ctx, s.selNextOID, s.dNext, s.a2...); err != nil {
		return t.fail(ctx, txn, "select district", err)
	}
	a := s.a6
	a[0], a[1], a[2], a[3], a[4], a[5] = &t.w64, &t.w64, t.dID, t.args.num64(s.nextOID-20), &s.nextOID, s.threshold
	if err := t.row(ctx, s.countLow, s.dCount, a...); err != nil {
		return t.fail(ctx, txn, "count low stock", err)
	}
	if err := t.commit(ctx); err != nil {
		return t.fail(ctx, txn, "commit", err)
	}
	return metrics.OK, nil
}
