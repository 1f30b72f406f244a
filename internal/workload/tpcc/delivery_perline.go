package tpcc

import (
	"context"
	"fmt"

	"benchpress/internal/target"
)

// perDistrictDL holds the Delivery statements of ShapePerLine: one
// statement per step and district, keyed by the full primary key.
type perDistrictDL struct {
	delNewOrder, selOrderCust, updOrder, updLines, sumLines, updCustomer target.Stmt

	dCust, dSum []any
	a3, a4      []any
}

func (p *perDistrictDL) prepare(pr *preparer, d *delivery) {
	// Once per district delivered (10 in steady state).
	const n = DistrictsPerWarehouse
	p.delNewOrder = pr.times("DELETE FROM {new_order} WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?", n)
	p.selOrderCust = pr.times("SELECT o_c_id FROM {orders} WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?", n)
	p.updOrder = pr.times("UPDATE {orders} SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?", n)
	p.updLines = pr.times("UPDATE {order_line} SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?", n)
	p.sumLines = pr.times("SELECT COALESCE(SUM(ol_amount), 0) FROM {order_line} WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?", n)
	p.updCustomer = pr.times("UPDATE {customer} SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 "+
		"WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?", n)
	p.dCust = []any{&d.cID}
	p.dSum = []any{&d.total}
	p.a3, p.a4 = make([]any, 3), make([]any, 4)
}

// deliveryDistricts delivers the districts found (clause 2.7.4.2) one at a
// time in ShapePerLine: delete the new_order row, read the order's
// customer, set the carrier, stamp the lines, sum them and credit the
// customer. A DELETE of 0 rows (a concurrent Delivery took the locked row,
// which the row lock should prevent) is a write conflict.
func (t *Terminal) deliveryDistricts(ctx context.Context) error {
	d, p := &t.dl, &t.dlPL
	for j := 0; j < d.found; j++ {
		key := p.a3
		key[0], key[1], key[2] = &t.w64, d.dIDs[j], &d.oIDs[j]
		n, err := t.exec(ctx, p.delNewOrder, key...)
		if err != nil {
			return txnErr("delivery", "delete new_order", err)
		}
		if n != 1 {
			return txnErr("delivery", "delete new_order", fmt.Errorf("%w: the DELETE removed %d rows of the locked order", target.ErrConflict, n))
		}
		if err := t.row(ctx, p.selOrderCust, p.dCust, key...); err != nil {
			return txnErr("delivery", "select order", err)
		}
		a4 := p.a4
		a4[0], a4[1], a4[2], a4[3] = d.carrier, &t.w64, d.dIDs[j], &d.oIDs[j]
		if _, err := t.exec(ctx, p.updOrder, a4...); err != nil {
			return txnErr("delivery", "update order", err)
		}
		a4[0] = &t.now
		if _, err := t.exec(ctx, p.updLines, a4...); err != nil {
			return txnErr("delivery", "update order_line", err)
		}
		if err := t.row(ctx, p.sumLines, p.dSum, key...); err != nil {
			return txnErr("delivery", "sum order_line", err)
		}
		a4[0], a4[1], a4[2], a4[3] = &d.total, &t.w64, d.dIDs[j], &d.cID
		if _, err := t.exec(ctx, p.updCustomer, a4...); err != nil {
			return txnErr("delivery", "update customer", err)
		}
	}
	return nil
}
