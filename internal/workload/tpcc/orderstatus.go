package tpcc

import (
	"context"
	"database/sql"
	"errors"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

// orderStatus holds the Order-Status statements and reused buffers.
type orderStatus struct {
	selCustomer, selLastOrder, selLines target.Stmt

	// inputs (clause 2.6.1)
	dID, cID, last int
	byName         bool

	// scan destinations (display only, but really read)
	cBalance               target.Cents
	cFirst, cMiddle, cLst  target.TextBuf
	oID                    int64
	oCarrier               sql.NullInt64
	olIID, olSupply, olQty int64
	olAmount               target.Cents
	dCu, dOrd, dLine       []any
	a3                     []any
}

func (o *orderStatus) prepare(p *preparer) {
	o.selCustomer = p.stmt("SELECT c_balance, c_first, c_middle, c_last FROM {customer} WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?")
	o.selLastOrder = p.stmt("SELECT o_id, o_entry_d, o_carrier_id FROM {orders} WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1")
	o.selLines = p.stmt("SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM {order_line} WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?")
	o.dCu = []any{&o.cBalance, &o.cFirst, &o.cMiddle, &o.cLst}
	o.dOrd = []any{&o.oID, &target.Discard{}, &o.oCarrier}
	o.dLine = []any{&o.olIID, &o.olSupply, &o.olQty, &o.olAmount, &target.Discard{}}
	o.a3 = make([]any, 3)
}

// orderStatus runs clause 2.6.2 in one read-only transaction reading one
// snapshot (clause 3.4: level 3 among the read-write transactions): the customer
// (60 % by last name with the middle-row rule, at the home warehouse), their
// latest order, and its lines.
func (t *Terminal) orderStatus(ctx context.Context, fresh bool) (metrics.Outcome, error) {
	const txn = "order_status"
	o := &t.os
	if fresh {
		o.dID = t.r.Range(1, DistrictsPerWarehouse)
		o.byName, o.last, o.cID = t.customerKey()
	}
	if err := t.beginSnapshot(ctx); err != nil {
		return t.fail(ctx, txn, "begin", err)
	}
	cID := o.cID
	if o.byName {
		id, err := t.customerByName(ctx, t.wID, o.dID, o.last)
		if err != nil {
			return t.fail(ctx, txn, "select customer by last name", err)
		}
		cID = id
	}
	a := o.a3
	a[0], a[1], a[2] = &t.w64, o.dID, t.args.num(cID)
	if err := t.row(ctx, o.selCustomer, o.dCu, a...); err != nil {
		return t.fail(ctx, txn, "select customer", err)
	}
	err := t.row(ctx, o.selLastOrder, o.dOrd, a...)
	switch {
	case errors.Is(err, target.ErrNoRows):
		// Every loaded customer has an order; tolerate a foreign data set.
	case err != nil:
		return t.fail(ctx, txn, "select last order", err)
	default:
		a[2] = &o.oID
		rows, err := t.query(ctx, o.selLines, a...)
		if err != nil {
			return t.fail(ctx, txn, "select order lines", err)
		}
		for rows.Next() {
			if err := rows.Scan(o.dLine...); err != nil {
				rows.Close()
				return t.fail(ctx, txn, "scan order line", err)
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return t.fail(ctx, txn, "select order lines", err)
		}
	}
	if err := t.commit(ctx); err != nil {
		return t.fail(ctx, txn, "commit", err)
	}
	if o.byName {
		t.ex[exOrderStatusByName]++
	}
	return metrics.OK, nil
}
