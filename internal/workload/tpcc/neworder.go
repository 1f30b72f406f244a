package tpcc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

// unusedItemID is the item id that triggers the 1 % New-Order rollback
// (clause 2.4.1.4); it lies outside 1..NumItems (tpcc-mysql's choice).
const unusedItemID = NumItems + 1

// orderLine is one line's inputs (clause 2.4.1.5).
type orderLine struct {
	number int // ol_number, 1-based position in the order
	iID    int
	supply int
	qty    int
}

// neworder holds the New-Order statements, inputs and reused buffers.
type neworder struct {
	selWarehouse, selDistrict, updDistrict, selCustomer target.Stmt
	insOrder, insNewOrder, selItem, selStock, updStock  target.Stmt
	insLine                                             target.Stmt

	// inputs (clause 2.4.1)
	dID, cID, olCnt int
	rbk             bool
	allLocal        int
	remote          int64
	lines           [15]orderLine
	order           [15]int      // line indexes sorted by (supply, iID)
	price           [15]int64    // i_price in cents, per line index
	brandOK         [15]bool     // i_data contains ORIGINAL
	amounts         target.Cents // Σ ol_amount

	// scan destinations
	wTax, dTax, cDisc      target.Decimal4
	oID                    int64
	cLast, cCredit         string
	iPrice                 target.Cents
	iName, iData           string
	sQty, sYtd, sOrd, sRem int64
	sData, sDist           string
	dW, dD, dC, dI, dS     []any
	a2, a3, a4, a5, a6, a8 []any
	a10                    []any
}

func (n *neworder) prepare(p *preparer) {
	n.selWarehouse = p.stmt("SELECT w_tax FROM {warehouse} WHERE w_id = ?")
	n.selDistrict = p.stmt("SELECT d_tax, d_next_o_id FROM {district} WHERE d_w_id = ? AND d_id = ?{fu}")
	n.updDistrict = p.stmt("UPDATE {district} SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?")
	n.selCustomer = p.stmt("SELECT c_discount, c_last, c_credit FROM {customer} WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?")
	n.insOrder = p.stmt("INSERT INTO {orders} (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)")
	n.insNewOrder = p.stmt("INSERT INTO {new_order} (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)")
	n.selItem = p.stmt("SELECT i_price, i_name, i_data FROM {item} WHERE i_id = ?")
	// One statement for all ten s_dist_DD columns: the CASE picks the
	// district's (clause 2.4.2.2) without ten prepared variants per session.
	var b strings.Builder
	b.WriteString("SELECT s_quantity, s_data, CASE ? + 0")
	for d := 1; d <= DistrictsPerWarehouse; d++ {
		fmt.Fprintf(&b, " WHEN %d THEN s_dist_%02d", d, d)
	}
	b.WriteString(" END, s_ytd, s_order_cnt, s_remote_cnt FROM {stock} WHERE s_i_id = ? AND s_w_id = ?{fu}")
	n.selStock = p.stmt(b.String())
	n.updStock = p.stmt("UPDATE {stock} SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_i_id = ? AND s_w_id = ?")
	n.insLine = p.stmt("INSERT INTO {order_line} (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)")

	n.dW = []any{&n.wTax}
	n.dD = []any{&n.dTax, &n.oID}
	n.dC = []any{&n.cDisc, &n.cLast, &n.cCredit}
	n.dI = []any{&n.iPrice, &n.iName, &n.iData}
	n.dS = []any{&n.sQty, &n.sData, &n.sDist, &n.sYtd, &n.sOrd, &n.sRem}
	n.a2, n.a3, n.a4 = make([]any, 2), make([]any, 3), make([]any, 4)
	n.a5, n.a6, n.a8 = make([]any, 5), make([]any, 6), make([]any, 8)
	n.a10 = make([]any, 10)
}

// drawInputs draws clause 2.4.1's inputs: district, customer, 5..15 lines
// with NURand item ids (duplicates re-drawn), 1 % remote supply per line
// when W > 1, quantities 1..10, and the 1 % rollback on the last line.
func (t *Terminal) drawNewOrder() {
	n := &t.no
	n.dID = t.r.Range(1, DistrictsPerWarehouse)
	n.cID = t.r.NURand(1023, 1, CustomersPerDistrict, t.w.meta.CID)
	n.olCnt = t.r.Range(5, 15)
	n.rbk = t.r.Range(1, 100) == 1
	n.allLocal, n.remote = 1, 0
	for i := 0; i < n.olCnt; i++ {
		l := &n.lines[i]
		l.number = i + 1
	draw:
		l.iID = t.r.NURand(8191, 1, NumItems, t.w.meta.COLIID)
		for j := 0; j < i; j++ {
			if n.lines[j].iID == l.iID {
				goto draw
			}
		}
		l.supply = t.wID
		if t.nw > 1 && t.r.Range(1, 100) == 1 {
			l.supply = t.otherWarehouse()
			n.allLocal = 0
			n.remote++
		}
		l.qty = t.r.Range(1, 10)
	}
	if n.rbk {
		n.lines[n.olCnt-1].iID = unusedItemID
	}
	sortLines(n.lines[:n.olCnt], n.order[:n.olCnt])
}

// sortLines writes into order the line indexes sorted by (supply, iID), the
// order in which stock rows are locked, so that concurrent New-Orders lock
// in one global order and do not deadlock (§1.8 notes). Insertion sort: at
// most 15 lines, no allocation.
func sortLines(lines []orderLine, order []int) {
	for i := range order {
		order[i] = i
	}
	less := func(a, b int) bool {
		la, lb := &lines[a], &lines[b]
		if la.supply != lb.supply {
			return la.supply < lb.supply
		}
		return la.iID < lb.iID
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && less(order[j], order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

// newOrder runs clause 2.4.2 as one read-write transaction. Items are looked
// up in line order (the unused id of a rollback order is on the last line,
// so every other lookup has been sent when it misses); stock rows are then
// locked and updated at the supplying warehouse in (supply, i_id) order.
// A missing item rolls back and returns metrics.Rollback: a completed
// New-Order for tpmC.
func (t *Terminal) newOrder(ctx context.Context, fresh bool) (metrics.Outcome, error) {
	const txn = "new_order"
	n := &t.no
	if fresh {
		t.drawNewOrder()
	}
	if err := t.begin(ctx, true); err != nil {
		return t.fail(ctx, txn, "begin", err)
	}
	a := n.a2
	a[0] = t.wID
	if err := t.row(ctx, n.selWarehouse, n.dW, a[:1]...); err != nil {
		return t.fail(ctx, txn, "select warehouse", err)
	}
	a[0], a[1] = t.wID, n.dID
	if err := t.row(ctx, n.selDistrict, n.dD, a...); err != nil {
		return t.fail(ctx, txn, "select district", err)
	}
	if _, err := t.exec(ctx, n.updDistrict, a...); err != nil {
		return t.fail(ctx, txn, "update district", err)
	}
	a3 := n.a3
	a3[0], a3[1], a3[2] = t.wID, n.dID, n.cID
	if err := t.row(ctx, n.selCustomer, n.dC, a3...); err != nil {
		return t.fail(ctx, txn, "select customer", err)
	}
	now := time.Now()
	a7 := n.a8[:7]
	a7[0], a7[1], a7[2], a7[3], a7[4], a7[5], a7[6] = n.oID, n.dID, t.wID, n.cID, now, n.olCnt, n.allLocal
	if _, err := t.exec(ctx, n.insOrder, a7...); err != nil {
		return t.fail(ctx, txn, "insert order", err)
	}
	a3[0], a3[1], a3[2] = n.oID, n.dID, t.wID
	if _, err := t.exec(ctx, n.insNewOrder, a3...); err != nil {
		return t.fail(ctx, txn, "insert new_order", err)
	}
	for i := 0; i < n.olCnt; i++ {
		a[0] = n.lines[i].iID
		err := t.row(ctx, n.selItem, n.dI, a[:1]...)
		if errors.Is(err, target.ErrNoRows) {
			// Clause 2.4.2.3: "Item number is not valid" -> roll back.
			if rerr := t.rollback(ctx); rerr != nil {
				return metrics.Failed, txnErr(txn, "rollback", rerr)
			}
			t.ex[exNewOrderLines] += int64(n.olCnt)
			t.ex[exNewOrderRemoteLines] += n.remote
			return metrics.Rollback, nil
		}
		if err != nil {
			return t.fail(ctx, txn, "select item", err)
		}
		n.price[i] = int64(n.iPrice)
		n.brandOK[i] = strings.Contains(n.iData, "ORIGINAL")
	}
	n.amounts = 0
	for _, i := range n.order[:n.olCnt] {
		l := &n.lines[i]
		a3[0], a3[1], a3[2] = n.dID, l.iID, l.supply
		if err := t.row(ctx, n.selStock, n.dS, a3...); err != nil {
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
		a5 := n.a5
		a5[0], a5[1], a5[2], a5[3], a5[4] = q, l.qty, remote, l.iID, l.supply
		if _, err := t.exec(ctx, n.updStock, a5...); err != nil {
			return t.fail(ctx, txn, "update stock", err)
		}
		// Brand/generic (clause 2.4.2.2) is display-only; computed as the
		// spec requires.
		_ = n.brandOK[i] && strings.Contains(n.sData, "ORIGINAL")
		amount := target.Cents(int64(l.qty) * n.price[i])
		n.amounts += amount
		a9 := n.a10[:9]
		a9[0], a9[1], a9[2], a9[3], a9[4], a9[5], a9[6], a9[7], a9[8] =
			n.oID, n.dID, t.wID, l.number, l.iID, l.supply, l.qty, amount, n.sDist
		if _, err := t.exec(ctx, n.insLine, a9...); err != nil {
			return t.fail(ctx, txn, "insert order_line", err)
		}
	}
	// Displayed total (clause 2.4.2.2): Σ ol_amount × (1 − c_discount) ×
	// (1 + w_tax + d_tax), in 1e-10 cents; display-only.
	_ = int64(n.amounts) * (10000 - int64(n.cDisc)) * (10000 + int64(n.wTax) + int64(n.dTax))
	if err := t.commit(ctx); err != nil {
		return t.fail(ctx, txn, "commit", err)
	}
	t.ex[exNewOrderLines] += int64(n.olCnt)
	t.ex[exNewOrderRemoteLines] += n.remote
	return metrics.OK, nil
}
