package tpcc

import (
	"context"
	"errors"
	"fmt"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

// perLineNO holds the New-Order statements of ShapePerLine.
type perLineNO struct {
	selItem, updStock, insLine target.Stmt
	selStock                   [DistrictsPerWarehouse + 1]target.Stmt // by district: s_dist_DD
	dItem                      []any
	dStock                     []any
	a1, a5                     []any
	a9                         []any
}

func (p *perLineNO) prepare(pr *preparer, n *neworder) {
	// Once per order line (10 on average, clause 2.4.1.3); the stock
	// read by the order's district: 1 of 10 districts' statements.
	const lines = (5 + MaxOrderLines) / 2.0
	p.selItem = pr.times("SELECT i_price, i_name, i_data FROM {item} WHERE i_id = ?", lines)
	p.updStock = pr.times("UPDATE {stock} SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, "+
		"s_remote_cnt = s_remote_cnt + ? WHERE s_w_id = ? AND s_i_id = ?", lines)
	p.insLine = pr.times(insLinesSQL(1), lines)
	for d := 1; d <= DistrictsPerWarehouse; d++ {
		p.selStock[d] = pr.times(fmt.Sprintf("SELECT s_quantity, s_data, s_dist_%02d, s_ytd, s_order_cnt, s_remote_cnt "+
			"FROM {stock} WHERE s_w_id = ? AND s_i_id = ?{fu}", d), lines/DistrictsPerWarehouse)
	}
	p.dItem = []any{&n.iPrice, &n.iName, &n.iData}
	p.dStock = []any{&n.sQty, &n.sData, &n.sDist, &n.sYtd, &n.sOrd, &n.sRem}
	p.a1, p.a5, p.a9 = make([]any, 1), make([]any, 5), make([]any, 9)
}

// newOrderLines runs the per-line part of New-Order (clause 2.4.2.2) in
// ShapePerLine, after the order and new_order rows are in: every item is
// looked up in line order (a missing one, the 1 % unused id on the last
// line, rolls back), then per line in (supply, i_id) order the stock row is
// read with a lock, updated, and the order line inserted. It returns
// metrics.Rollback for the spec rollback, with the transaction rolled back.
func (t *Terminal) newOrderLines(ctx context.Context) (metrics.Outcome, error) {
	const txn = "new_order"
	n, p := &t.no, &t.noPL
	k := n.olCnt
	for i := 0; i < k; i++ {
		p.a1[0] = t.args.num(n.lines[i].iID)
		err := t.row(ctx, p.selItem, p.dItem, p.a1...)
		if errors.Is(err, target.ErrNoRows) {
			// Clause 2.4.2.3: "Item number is not valid" -> roll back;
			// only the rollback order's last line is (errItemMissing).
			if !n.rbk || i != k-1 {
				return t.fail(ctx, txn, "select item", fmt.Errorf("item %d on line %d: %w", n.lines[i].iID, i+1, errItemMissing))
			}
			if rerr := t.rollback(ctx); rerr != nil {
				return metrics.Failed, txnErr(txn, "rollback", rerr)
			}
			return metrics.Rollback, nil
		}
		if err != nil {
			return t.fail(ctx, txn, "select item", err)
		}
		n.price[i] = int64(n.iPrice)
		n.brandOK[i] = n.iData.Contains("ORIGINAL")
	}
	n.amounts = 0
	for j, i := range n.order[:k] {
		l := &n.lines[i]
		sup, item := t.args.num(l.supply), t.args.num(l.iID)
		a2 := n.a2
		a2[0], a2[1] = sup, item
		if err := t.row(ctx, p.selStock[n.dID], p.dStock, a2...); err != nil {
			return t.fail(ctx, txn, "select stock", err)
		}
		q := n.sQty - int64(l.qty)
		if n.sQty < int64(l.qty)+10 {
			q += 91
		}
		remote := 0
		if l.supply != t.wID {
			remote = 1
		}
		_ = n.brandOK[i] && n.sData.Contains("ORIGINAL") // display-only
		a5 := p.a5
		a5[0], a5[1], a5[2], a5[3], a5[4] = t.args.num64(q), l.qty, remote, sup, item
		if _, err := t.exec(ctx, p.updStock, a5...); err != nil {
			return t.fail(ctx, txn, "update stock", err)
		}
		n.amount[j] = target.Cents(int64(l.qty) * n.price[i])
		n.amounts += n.amount[j]
		a9 := p.a9
		a9[0], a9[1], a9[2], a9[3], a9[4], a9[5], a9[6], a9[7], a9[8] =
			&n.oID, n.dID, &t.w64, l.number, item, sup, l.qty, &n.amount[j], &n.sDist
		if _, err := t.exec(ctx, p.insLine, a9...); err != nil {
			return t.fail(ctx, txn, "insert order_line", err)
		}
	}
	return metrics.OK, nil
}
