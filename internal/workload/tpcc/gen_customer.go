package tpcc

// distWalker walks positions 1..n of every district slo..shi of warehouses
// wlo..whi, in that order.
type distWalker struct {
	d, pos int
}

// advance moves to the next position; fresh reports that a new district
// starts (the caller then opens its stream). ok is false at the end.
func (b *base) advance(dw *distWalker, n int) (fresh, ok bool) {
	if dw.d == 0 { // first call
		dw.d, dw.pos = b.sp.slo, 1
		return true, b.w <= b.sp.whi && dw.d <= b.sp.shi
	}
	dw.pos++
	if dw.pos <= n {
		return false, true
	}
	dw.pos = 1
	dw.d++
	if dw.d > b.sp.shi {
		dw.d = b.sp.slo
		b.w++
	}
	return true, b.w <= b.sp.whi
}

// customerGen generates CUSTOMER (clause 4.3.3.1); one stream per district.
type customerGen struct {
	base
	distWalker
}

func newCustomerGen(p GenParams, sp span) *customerGen {
	return &customerGen{base: newBase(tCustomer, p, sp)}
}

func (g *customerGen) Next() bool {
	fresh, ok := g.advance(&g.distWalker, CustomersPerDistrict)
	if !ok {
		return false
	}
	if fresh {
		g.r = g.p.stream(tCustomer, g.w, g.d)
	}
	c := g.pos
	g.int(0, c)
	g.int(1, g.d)
	g.int(2, g.w)
	g.astr(3, 8, 16) // c_first
	g.str(4, "OE")   // c_middle
	// c_last: c_id 1..1000 take every name 0..999 once; the rest are
	// NURand(255,0,999) with C-Load (clause 4.3.2.3, 4.3.3.1).
	n := c - 1
	if c > 1000 {
		n = g.r.NURand(255, 0, 999, g.p.CLoadLast)
	}
	f := &g.row[5]
	f.B = AppendLastName(f.Text(), n)
	g.address(6)
	f = &g.row[11]
	f.B = g.r.AppendNString(f.Text(), 16, 16) // c_phone
	g.row[12].SetTime(g.p.LoadTime)           // c_since
	if g.r.Range(1, 10) == 1 {                // 10% bad credit
		g.str(13, "BC")
	} else {
		g.str(13, "GC")
	}
	g.row[14].SetCents(5000000)                  // c_credit_lim 50,000.00
	g.row[15].SetDec4(int64(g.r.Range(0, 5000))) // c_discount 0..0.5
	g.row[16].SetCents(-1000)                    // c_balance -10.00
	g.row[17].SetCents(1000)                     // c_ytd_payment 10.00
	g.int(18, 1)                                 // c_payment_cnt
	g.int(19, 0)                                 // c_delivery_cnt
	g.astr(20, 300, 500)                         // c_data
	return true
}

// historyGen generates HISTORY, one row per customer (clause 4.3.3.1).
type historyGen struct {
	base
	distWalker
}

func newHistoryGen(p GenParams, sp span) *historyGen {
	return &historyGen{base: newBase(tHistory, p, sp)}
}

func (g *historyGen) Next() bool {
	fresh, ok := g.advance(&g.distWalker, CustomersPerDistrict)
	if !ok {
		return false
	}
	if fresh {
		g.r = g.p.stream(tHistory, g.w, g.d)
	}
	g.int(0, g.pos)
	g.int(1, g.d)
	g.int(2, g.w)
	g.int(3, g.d)
	g.int(4, g.w)
	g.row[5].SetTime(g.p.LoadTime)
	g.row[6].SetCents(1000) // h_amount 10.00
	g.astr(7, 12, 24)       // h_data
	return true
}
