package tpcc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

// errItemMissing: an item of a New-Order that is not the spec's rollback
// order was not found.
var errItemMissing = errors.New("an item id in 1..100000 is missing from ITEM (the data set is incomplete)")

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
//
// The per-line work is batched (as go-tpc and cockroach do): one item
// lookup, one stock read, one stock update and one order_line insert for
// all lines. The lookup, read and update have one fixed shape for every
// line count: their lists are padded to 15 entries by repeating the last
// line (an IN list or CASE that names a row twice still touches it once),
// so a terminal holds one statement each instead of eleven. The multi-row
// INSERT cannot be padded; it is prepared lazily per count (5..15).
type neworder struct {
	selWarehouse, selDistrict, updDistrict, selCustomer target.Stmt
	insOrder, insNewOrder                               target.Stmt
	selItems, selStocks, updStocks                      target.Stmt     // padded to MaxOrderLines
	insLines                                            [16]target.Stmt // by line count

	// inputs (clause 2.4.1)
	dID, cID, olCnt int
	rbk             bool
	allLocal        int
	remote          int64
	lines           [15]orderLine
	order           [15]int            // line indexes sorted by (supply, iID)
	price           [15]int64          // i_price in cents, per line index
	brandOK         [15]bool           // i_data contains ORIGINAL
	found           [15]bool           // item row seen, per line index
	newQty          [15]int64          // new s_quantity, per position in order
	dist            [15]target.TextBuf // s_dist_DD, per position in order
	amount          [15]target.Cents   // ol_amount, per position in order
	amounts         target.Cents       // Σ ol_amount

	// scan destinations
	wTax, dTax, cDisc      target.Decimal4
	oID                    int64
	cLast, cCredit         target.TextBuf
	rIID, rWID             int64
	iPrice                 target.Cents
	iName, iData           target.TextBuf
	sQty, sYtd, sOrd, sRem int64
	sData, sDist           target.TextBuf
	dW, dD, dC, dI, dS     []any
	a2, a3, a8             []any
	args                   []any // batched statements' arguments
}

func (n *neworder) prepare(p *preparer) {
	n.selWarehouse = p.stmt("SELECT w_tax FROM {warehouse} WHERE w_id = ?")
	n.selDistrict = p.stmt("SELECT d_tax, d_next_o_id FROM {district} WHERE d_w_id = ? AND d_id = ?{fu}")
	n.updDistrict = p.stmt("UPDATE {district} SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?")
	n.selCustomer = p.stmt("SELECT c_discount, c_last, c_credit FROM {customer} WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?")
	n.insOrder = p.stmt("INSERT INTO {orders} (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)")
	n.insNewOrder = p.stmt("INSERT INTO {new_order} (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)")
	n.selItems = p.batched(selItemsSQL(MaxOrderLines))
	n.selStocks = p.batched(selStocksSQL(MaxOrderLines))
	n.updStocks = p.batched(updStocksSQL(MaxOrderLines))

	n.dW = []any{&n.wTax}
	n.dD = []any{&n.dTax, &n.oID}
	n.dC = []any{&n.cDisc, &n.cLast, &n.cCredit}
	n.dI = []any{&n.rIID, &n.iPrice, &n.iName, &n.iData}
	n.dS = []any{&n.rIID, &n.rWID, &n.sQty, &n.sData, &n.sDist, &n.sYtd, &n.sOrd, &n.sRem}
	n.a2, n.a3, n.a8 = make([]any, 2), make([]any, 3), make([]any, 8)
	n.args = make([]any, 0, 9*MaxOrderLines)
}

// drawNewOrder draws clause 2.4.1's inputs: district, customer, 5..15 lines
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
		if t.canRemote() && t.r.Range(1, 100) == 1 {
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

// newOrder runs clause 2.4.2 as one read-write transaction. All items are
// looked up in one statement (the lookup is sent even for a rollback
// order); stock rows are then locked in one read at the supplying
// warehouses in (supply, i_id) order, updated in one statement, and the
// order lines inserted in one multi-row INSERT: 12 statements whatever the
// line count. A missing item rolls back and returns metrics.Rollback: a
// completed New-Order for tpmC.
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
	a[0] = &t.w64
	if err := t.row(ctx, n.selWarehouse, n.dW, a[:1]...); err != nil {
		return t.fail(ctx, txn, "select warehouse", err)
	}
	a[1] = n.dID
	if err := t.row(ctx, n.selDistrict, n.dD, a...); err != nil {
		return t.fail(ctx, txn, "select district", err)
	}
	if _, err := t.exec(ctx, n.updDistrict, a...); err != nil {
		return t.fail(ctx, txn, "update district", err)
	}
	a3 := n.a3
	w, c := &t.w64, t.args.num(n.cID)
	a3[0], a3[1], a3[2] = w, n.dID, c
	if err := t.row(ctx, n.selCustomer, n.dC, a3...); err != nil {
		return t.fail(ctx, txn, "select customer", err)
	}
	t.now = time.Now()
	a7 := n.a8[:7]
	a7[0], a7[1], a7[2], a7[3], a7[4], a7[5], a7[6] = &n.oID, n.dID, w, c, &t.now, n.olCnt, n.allLocal
	if _, err := t.exec(ctx, n.insOrder, a7...); err != nil {
		return t.fail(ctx, txn, "insert order", err)
	}
	a3[0], a3[1], a3[2] = &n.oID, n.dID, w
	if _, err := t.exec(ctx, n.insNewOrder, a3...); err != nil {
		return t.fail(ctx, txn, "insert new_order", err)
	}
	if t.w.cfg.Shape == ShapePerLine {
		out, err := t.newOrderLines(ctx)
		if out == metrics.OK {
			return t.newOrderCommit(ctx)
		}
		if out == metrics.Rollback {
			t.countNewOrder(false)
		}
		return out, err
	}
	k := n.olCnt
	// Clause 2.4.2.2/2.4.2.3: all item lookups in one statement; it is sent
	// even when the unused id makes it miss.
	t.args.reset()
	args := n.args[:0]
	for i := 0; i < MaxOrderLines; i++ {
		if i < k {
			args = append(args, t.args.num(n.lines[i].iID))
		} else {
			args = append(args, args[k-1]) // padded with the last line
		}
		n.found[i] = false
	}
	got, err := t.items(ctx, n.selItems, args)
	if err != nil {
		return t.fail(ctx, txn, "select item", err)
	}
	if got < k {
		// Clause 2.4.2.3: "Item number is not valid" -> roll back. Ids are
		// distinct, so fewer rows than lines means an id is unused; only
		// the order drawn for it (its last line's unused id) is the spec's
		// rollback: any other missing item is a broken ITEM table (or a
		// proxy's incomplete broadcast copy), a failure, not a New-Order.
		if !n.rbk || got != k-1 || n.found[k-1] {
			return t.fail(ctx, txn, "select item", fmt.Errorf("%d of the order's %d items found: %w", got, k, errItemMissing))
		}
		if rerr := t.rollback(ctx); rerr != nil {
			return metrics.Failed, txnErr(txn, "rollback", rerr)
		}
		t.countNewOrder(false)
		return metrics.Rollback, nil
	}

	// Stock: read and lock all rows at their supplying warehouses in
	// (supply, i_id) order, then update them in one statement.
	// Lists are padded to MaxOrderLines with the last line in lock order.
	// The (supply, i_id) pairs in lock order are bound by every stock
	// statement: slots of their own, then the update's quantities.
	t.args.reset()
	var sup, item [MaxOrderLines]any
	for j := 0; j < k; j++ {
		l := &n.lines[n.order[j]]
		sup[j], item[j] = t.args.num(l.supply), t.args.num(l.iID)
	}
	for j := k; j < MaxOrderLines; j++ {
		sup[j], item[j] = sup[k-1], item[k-1]
	}
	args = append(n.args[:0], n.dID)
	for j := 0; j < MaxOrderLines; j++ {
		args = append(args, sup[j], item[j])
	}
	if err := t.stocks(ctx, n.selStocks, args); err != nil {
		return t.fail(ctx, txn, "select stock", err)
	}
	args = n.args[:0]
	for j := 0; j < MaxOrderLines; j++ {
		jj := min(j, k-1)
		args = append(args, item[j], &n.newQty[jj])
	}
	for j := 0; j < MaxOrderLines; j++ {
		l := &n.lines[n.order[min(j, k-1)]]
		args = append(args, item[j], l.qty)
	}
	args = append(args, w)
	for j := 0; j < MaxOrderLines; j++ {
		args = append(args, sup[j], item[j])
	}
	if _, err := t.exec(ctx, n.updStocks, args...); err != nil {
		return t.fail(ctx, txn, "update stock", err)
	}

	// Order lines, one multi-row INSERT.
	st, err := t.lazy(ctx, n.insLines[:], k, insLinesSQL)
	if err != nil {
		return t.fail(ctx, txn, "prepare insert order_line", err)
	}
	n.amounts = 0
	args = n.args[:0]
	for j, i := range n.order[:k] {
		l := &n.lines[i]
		n.amount[j] = target.Cents(int64(l.qty) * n.price[i])
		n.amounts += n.amount[j]
		args = append(args, &n.oID, n.dID, w, l.number, item[j], sup[j], l.qty, &n.amount[j], &n.dist[j])
	}
	if _, err := t.exec(ctx, st, args...); err != nil {
		return t.fail(ctx, txn, "insert order_line", err)
	}
	return t.newOrderCommit(ctx)
}

// newOrderCommit computes the displayed total, commits and counts the
// order's lines.
func (t *Terminal) newOrderCommit(ctx context.Context) (metrics.Outcome, error) {
	const txn = "new_order"
	n := &t.no
	// Displayed total (clause 2.4.2.2): Σ ol_amount × (1 − c_discount) ×
	// (1 + w_tax + d_tax), in 1e-10 cents; display-only.
	_ = int64(n.amounts) * (10000 - int64(n.cDisc)) * (10000 + int64(n.wTax) + int64(n.dTax))
	if err := t.commit(ctx); err != nil {
		return t.fail(ctx, txn, "commit", err)
	}
	t.countNewOrder(true)
	return metrics.OK, nil
}

// items runs the batched item lookup and records price and brand per line;
// it returns how many rows came back (each matches one line: ids are
// distinct).
func (t *Terminal) items(ctx context.Context, st target.Stmt, args []any) (int, error) {
	n := &t.no
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return 0, err
	}
	got := 0
	for rows.Next() {
		if err := rows.Scan(n.dI...); err != nil {
			_ = rows.Close()
			return 0, err
		}
		for i := 0; i < n.olCnt; i++ {
			if int64(n.lines[i].iID) == n.rIID && !n.found[i] {
				n.found[i] = true
				n.price[i] = int64(n.iPrice)
				n.brandOK[i] = n.iData.Contains("ORIGINAL")
				got++
				break
			}
		}
	}
	if err := rows.Err(); err != nil {
		_ = rows.Close()
		return 0, err
	}
	return got, rows.Close()
}

// errStockRows is returned when the batched stock read does not return one
// row per line in (supply, i_id) order (the data set is not a TPC-C
// population).
var errStockRows = errors.New("stock rows do not match the order lines")

// stocks runs the batched stock read; rows arrive in (s_w_id, s_i_id) order,
// which is n.order's. It computes each line's new quantity (clause 2.4.2.2:
// s_quantity − qty if that leaves at least 10, else + 91) and keeps
// s_dist_DD for ol_dist_info.
func (t *Terminal) stocks(ctx context.Context, st target.Stmt, args []any) error {
	n := &t.no
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return err
	}
	j := 0
	for rows.Next() {
		if err := rows.Scan(n.dS...); err != nil {
			_ = rows.Close()
			return err
		}
		if j >= n.olCnt {
			_ = rows.Close()
			return errStockRows
		}
		l := &n.lines[n.order[j]]
		if n.rIID != int64(l.iID) || n.rWID != int64(l.supply) {
			_ = rows.Close()
			return errStockRows
		}
		q := n.sQty - int64(l.qty)
		if n.sQty < int64(l.qty)+10 {
			q += 91
		}
		n.newQty[j] = q
		n.dist[j].Set(n.sDist.Bytes())
		// Brand/generic (clause 2.4.2.2) is display-only; computed as the
		// spec requires.
		_ = n.brandOK[n.order[j]] && n.sData.Contains("ORIGINAL")
		j++
	}
	if err := rows.Err(); err != nil {
		_ = rows.Close()
		return err
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if j != n.olCnt {
		return errStockRows
	}
	return nil
}

// countNewOrder adds a completed New-Order's lines and remote lines and,
// when sharded and committed, whether a supplying warehouse lay on another
// shard (a spec rollback ends before the stock rows are touched).
func (t *Terminal) countNewOrder(committed bool) {
	n := &t.no
	t.ex[exNewOrderLines] += int64(n.olCnt)
	t.ex[exNewOrderRemoteLines] += n.remote
	if committed && n.remote > 0 && t.sharded {
		for i := 0; i < n.olCnt; i++ {
			if t.crossShard(n.lines[i].supply) {
				t.ex[exCrossShardNewOrder]++
				break
			}
		}
	}
}
