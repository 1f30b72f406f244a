package tpcc

import (
	"context"
	"strconv"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

// cLastNames caches the 1000 C_LAST values so that the hot path binds a
// string without building it.
var cLastNames = func() (n [1000]string) {
	for i := range n {
		n[i] = LastName(i)
	}
	return
}()

// maxCData is c_data's width (varchar(500)).
const maxCData = 500

// payment holds the Payment statements, inputs and reused buffers.
type payment struct {
	updWarehouse, selWarehouse, updDistrict, selDistrict target.Stmt
	custByName, selCustomer, selCData                    target.Stmt
	updCustomer, updCustomerBC, insHistory               target.Stmt

	// inputs (clause 2.5.1)
	dID, cWID, cDID, cID, last int
	byName, remote             bool
	amount                     target.Cents

	// scan destinations
	wName, dName, cCredit, cData target.TextBuf
	cBalance, cCreditLim         target.Cents
	cDiscount                    target.Decimal4
	text                         [6]target.TextBuf // street/city/state/zip (display only)
	cText                        [9]target.TextBuf
	newData, hData               target.TextBuf // c_data of a "BC" customer, h_data
	dWh, dDi, dCu, dCD           []any
	a1, a3, a4, a6, a8           []any
	ids                          []int64
	idDest                       []any
	idTmp                        int64
}

func (pa *payment) prepare(p *preparer) {
	pa.updWarehouse = p.stmt("UPDATE {warehouse} SET w_ytd = w_ytd + ? WHERE w_id = ?")
	pa.selWarehouse = p.stmt("SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM {warehouse} WHERE w_id = ?")
	pa.updDistrict = p.stmt("UPDATE {district} SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?")
	pa.selDistrict = p.stmt("SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM {district} WHERE d_w_id = ? AND d_id = ?")
	pa.custByName = p.stmt("SELECT c_id FROM {customer} WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first")
	pa.selCustomer = p.stmt("SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance FROM {customer} WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?{fu}")
	// FOR UPDATE although the row is locked already: under InnoDB's
	// REPEATABLE READ a plain read returns the transaction's snapshot, not
	// the locked row, and the UPDATE below would build C_DATA on a version
	// a concurrent Payment has replaced (its entry lost; clause 2.5.2.2).
	pa.selCData = p.stmt("SELECT c_data FROM {customer} WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?{fu}")
	pa.updCustomer = p.stmt("UPDATE {customer} SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?")
	pa.updCustomerBC = p.stmt("UPDATE {customer} SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?")
	pa.insHistory = p.stmt("INSERT INTO {history} (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")

	pa.dWh = []any{&pa.wName, &pa.text[0], &pa.text[1], &pa.text[2], &pa.text[3], &pa.text[4]}
	pa.dDi = []any{&pa.dName, &pa.text[0], &pa.text[1], &pa.text[2], &pa.text[3], &pa.text[4]}
	c := &pa.cText
	pa.dCu = []any{&c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7], &c[8], &target.Discard{},
		&pa.cCredit, &pa.cCreditLim, &pa.cDiscount, &pa.cBalance}
	pa.dCD = []any{&pa.cData}
	pa.idDest = []any{&pa.idTmp}
	pa.a1, pa.a3, pa.a4 = make([]any, 1), make([]any, 3), make([]any, 4)
	pa.a6, pa.a8 = make([]any, 6), make([]any, 8)
	pa.ids = make([]int64, 0, 16)
}

// drawPayment draws clause 2.5.1's inputs: district, 85 % local / 15 %
// remote customer (always local with one warehouse), 60 % by last name,
// amount 1.00..5000.00.
func (t *Terminal) drawPayment() {
	pa := &t.pa
	pa.dID = t.r.Range(1, DistrictsPerWarehouse)
	pa.remote = false
	pa.cWID, pa.cDID = t.wID, pa.dID
	if t.r.Range(1, 100) > 85 && t.canRemote() {
		pa.remote = true
		pa.cWID = t.otherWarehouse()
		pa.cDID = t.r.Range(1, DistrictsPerWarehouse)
	}
	pa.byName, pa.last, pa.cID = t.customerKey()
	pa.amount = target.Cents(t.r.Range(100, 500000))
}

// customerByName returns the c_id of the middle customer (clause 2.5.2.2,
// index (n+1)/2−1) among those named cLastNames[last] in (w, d), ordered by
// c_first.
func (t *Terminal) customerByName(ctx context.Context, w, d, last int) (int, error) {
	pa := &t.pa
	a := pa.a3
	a[0], a[1], a[2] = t.args.num(w), d, &cLastNames[last]
	rows, err := t.query(ctx, pa.custByName, a...)
	if err != nil {
		return 0, err
	}
	pa.ids = pa.ids[:0]
	for rows.Next() {
		if err := rows.Scan(pa.idDest...); err != nil {
			rows.Close()
			return 0, err
		}
		pa.ids = append(pa.ids, pa.idTmp)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return 0, err
	}
	if len(pa.ids) == 0 {
		return 0, errNoCustomer
	}
	return int(pa.ids[middleIndex(len(pa.ids))]), nil
}

// payment runs clause 2.5.2 as one read-write transaction. A "BC" customer
// also gets the payment text prepended to c_data (truncated to 500).
func (t *Terminal) payment(ctx context.Context, fresh bool) (metrics.Outcome, error) {
	const txn = "payment"
	pa := &t.pa
	if fresh {
		t.drawPayment()
	}
	if err := t.begin(ctx, true); err != nil {
		return t.fail(ctx, txn, "begin", err)
	}
	a := pa.a3
	a[0], a[1] = &pa.amount, &t.w64
	if _, err := t.exec(ctx, pa.updWarehouse, a[:2]...); err != nil {
		return t.fail(ctx, txn, "update warehouse", err)
	}
	pa.a1[0] = &t.w64
	if err := t.row(ctx, pa.selWarehouse, pa.dWh, pa.a1...); err != nil {
		return t.fail(ctx, txn, "select warehouse", err)
	}
	a[2] = pa.dID
	if _, err := t.exec(ctx, pa.updDistrict, a...); err != nil {
		return t.fail(ctx, txn, "update district", err)
	}
	if err := t.row(ctx, pa.selDistrict, pa.dDi, a[1:]...); err != nil {
		return t.fail(ctx, txn, "select district", err)
	}
	cID := pa.cID
	if pa.byName {
		id, err := t.customerByName(ctx, pa.cWID, pa.cDID, pa.last)
		if err != nil {
			return t.fail(ctx, txn, "select customer by last name", err)
		}
		cID = id
	}
	cw, c := t.args.num(pa.cWID), t.args.num(cID)
	a[0], a[1], a[2] = cw, pa.cDID, c
	if err := t.row(ctx, pa.selCustomer, pa.dCu, a...); err != nil {
		return t.fail(ctx, txn, "select customer", err)
	}
	if pa.cCredit.Equal("BC") {
		if err := t.row(ctx, pa.selCData, pa.dCD, a...); err != nil {
			return t.fail(ctx, txn, "select c_data", err)
		}
		u := pa.a6
		u[0], u[1], u[2], u[3], u[4], u[5] = &pa.amount, &pa.amount, t.badCreditData(cID), cw, pa.cDID, c
		if _, err := t.exec(ctx, pa.updCustomerBC, u...); err != nil {
			return t.fail(ctx, txn, "update customer", err)
		}
	} else {
		u := pa.a6[:5]
		u[0], u[1], u[2], u[3], u[4] = &pa.amount, &pa.amount, cw, pa.cDID, c
		if _, err := t.exec(ctx, pa.updCustomer, u...); err != nil {
			return t.fail(ctx, txn, "update customer", err)
		}
	}
	// h_data: w_name, four spaces, d_name (clause 2.5.2.2).
	b := append(t.buf[:0], pa.wName.Bytes()...)
	b = append(b, "    "...)
	t.buf = append(b, pa.dName.Bytes()...)
	pa.hData.Set(t.buf)
	t.now = time.Now()
	h := pa.a8
	h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7] =
		c, pa.cDID, cw, pa.dID, &t.w64, &t.now, &pa.amount, &pa.hData
	if _, err := t.exec(ctx, pa.insHistory, h...); err != nil {
		return t.fail(ctx, txn, "insert history", err)
	}
	if err := t.commit(ctx); err != nil {
		return t.fail(ctx, txn, "commit", err)
	}
	if pa.remote {
		t.ex[exPaymentRemote]++
		if t.crossShard(pa.cWID) {
			t.ex[exCrossShardPayment]++
		}
	}
	if pa.byName {
		t.ex[exPaymentByName]++
	}
	return metrics.OK, nil
}

// badCreditData builds the new c_data of a "BC" customer (clause 2.5.2.2):
// "c_id c_d_id c_w_id d_id w_id amount |" on the left, the old text shifted
// right, all truncated to 500 characters. The text is valid until the
// next call.
func (t *Terminal) badCreditData(cID int) *target.TextBuf {
	pa := &t.pa
	b := t.buf[:0]
	b = strconv.AppendInt(b, int64(cID), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(pa.cDID), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(pa.cWID), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(pa.dID), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(t.wID), 10)
	b = append(b, ' ')
	b = appendCents(b, pa.amount)
	b = append(b, " | "...)
	b = append(b, pa.cData.Bytes()...)
	if len(b) > maxCData {
		b = b[:maxCData]
	}
	t.buf = b
	pa.newData.Set(b)
	return &pa.newData
}

// appendCents appends c as a decimal with two places ("1234.05").
func appendCents(b []byte, c target.Cents) []byte {
	v := int64(c)
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	b = strconv.AppendInt(b, v/100, 10)
	b = append(b, '.', byte('0'+v%100/10), byte('0'+v%10))
	return b
}
