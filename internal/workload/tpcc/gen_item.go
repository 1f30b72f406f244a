package tpcc

// itemGen generates ITEM (clause 4.3.3.1): i_id in [slo, shi]; one random
// stream per ItemChunk ids.
type itemGen struct {
	base
	id   int
	orig originalPick
}

func newItemGen(p GenParams, sp span) *itemGen {
	return &itemGen{base: newBase(tItem, p, sp), id: sp.slo - 1}
}

func (g *itemGen) Next() bool {
	if g.id >= g.sp.shi {
		return false
	}
	g.id++
	if g.r == nil || (g.id-1)%ItemChunk == 0 {
		g.r = g.p.stream(tItem, 0, (g.id-1)/ItemChunk)
	}
	g.int(0, g.id)
	g.int(1, g.r.Range(1, 10000)) // i_im_id
	g.astr(2, 14, 24)             // i_name
	g.row[3].SetCents(int64(g.r.Range(100, 10000)))
	f := &g.row[4]
	f.B = g.r.AppendOriginal(f.Text(), 26, 50, g.orig.is(g.r, g.id))
	return true
}

// stockGen generates STOCK (clause 4.3.3.1) for warehouses wlo..whi, item
// ids slo..shi; one random stream per (warehouse, ItemChunk).
type stockGen struct {
	base
	id   int
	orig originalPick
}

func newStockGen(p GenParams, sp span) *stockGen {
	return &stockGen{base: newBase(tStock, p, sp), id: sp.shi}
}

func (g *stockGen) Next() bool {
	if g.id >= g.sp.shi {
		if g.r != nil {
			g.w++
		}
		if g.w > g.sp.whi {
			return false
		}
		g.id = g.sp.slo - 1
	}
	g.id++
	if g.r == nil || (g.id-1)%ItemChunk == 0 {
		g.r = g.p.stream(tStock, g.w, (g.id-1)/ItemChunk)
	}
	g.int(0, g.id)
	g.int(1, g.w)
	g.int(2, g.r.Range(10, 100)) // s_quantity
	for i := 3; i < 13; i++ {
		g.astr(i, 24, 24) // s_dist_01..10
	}
	g.int(13, 0) // s_ytd
	g.int(14, 0) // s_order_cnt
	g.int(15, 0) // s_remote_cnt
	f := &g.row[16]
	f.B = g.r.AppendOriginal(f.Text(), 26, 50, g.orig.is(g.r, g.id))
	return true
}
