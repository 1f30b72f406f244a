package tpcc

import "benchpress/internal/randgen"

// ordersGen generates ORDER (clause 4.3.3.1). O_C_ID is taken in sequence
// from a random permutation of 1..3000 per district, so every customer has
// exactly one order. O_OL_CNT comes from the tOlCnt stream that the
// ORDER-LINE generator replays, so both tables agree without sharing state.
type ordersGen struct {
	base
	distWalker
	perm [CustomersPerDistrict]int
	olr  *randgen.Rand
}

func newOrdersGen(p GenParams, sp span) *ordersGen {
	return &ordersGen{base: newBase(tOrders, p, sp)}
}

func (g *ordersGen) Next() bool {
	fresh, ok := g.advance(&g.distWalker, OrdersPerDistrict)
	if !ok {
		return false
	}
	if fresh {
		g.r = g.p.stream(tOrders, g.w, g.d)
		g.olr = g.p.stream(tOlCnt, g.w, g.d)
		g.r.Permute(g.perm[:])
	}
	o := g.pos
	g.int(0, o)
	g.int(1, g.d)
	g.int(2, g.w)
	g.int(3, g.perm[o-1])
	g.row[4].SetTime(g.p.LoadTime)
	if o < FirstUndeliveredOrder {
		g.int(5, g.r.Range(1, 10)) // o_carrier_id
	} else {
		g.row[5].SetNull()
	}
	g.int(6, g.olr.Range(5, 15)) // o_ol_cnt
	g.int(7, 1)                  // o_all_local
	return true
}

// newOrderGen generates NEW-ORDER: orders 2101..3000 of every district.
type newOrderGen struct {
	base
	distWalker
}

func newNewOrderGen(p GenParams, sp span) *newOrderGen {
	return &newOrderGen{base: newBase(tNewOrder, p, sp)}
}

func (g *newOrderGen) Next() bool {
	if _, ok := g.advance(&g.distWalker, NewOrdersPerDistrict); !ok {
		return false
	}
	g.int(0, OrdersPerDistrict-NewOrdersPerDistrict+g.pos)
	g.int(1, g.d)
	g.int(2, g.w)
	return true
}

// orderLineGen generates ORDER-LINE: O_OL_CNT lines per order (clause
// 4.3.3.1). OL_I_ID is uniform random(1,100000), not NURand.
type orderLineGen struct {
	base
	distWalker
	olr      *randgen.Rand
	line, nl int
}

func newOrderLineGen(p GenParams, sp span) *orderLineGen {
	return &orderLineGen{base: newBase(tOrderLine, p, sp)}
}

func (g *orderLineGen) Next() bool {
	if g.line >= g.nl {
		fresh, ok := g.advance(&g.distWalker, OrdersPerDistrict)
		if !ok {
			return false
		}
		if fresh {
			g.r = g.p.stream(tOrderLine, g.w, g.d)
			g.olr = g.p.stream(tOlCnt, g.w, g.d)
		}
		g.line, g.nl = 0, g.olr.Range(5, 15)
	}
	g.line++
	o := g.pos
	g.int(0, o)
	g.int(1, g.d)
	g.int(2, g.w)
	g.int(3, g.line)
	g.int(4, g.r.Range(1, NumItems)) // ol_i_id
	g.int(5, g.w)                    // ol_supply_w_id
	delivered := o < FirstUndeliveredOrder
	if delivered {
		g.row[6].SetTime(g.p.LoadTime)
	} else {
		g.row[6].SetNull()
	}
	g.int(7, 5) // ol_quantity
	if delivered {
		g.row[8].SetCents(0)
	} else {
		g.row[8].SetCents(int64(g.r.Range(1, 999999)))
	}
	g.astr(9, 24, 24) // ol_dist_info
	return true
}
