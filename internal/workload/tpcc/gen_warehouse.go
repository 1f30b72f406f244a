package tpcc

// Initial year-to-date amounts in cents (clause 4.3.3.1): W_YTD = 300,000.00
// = 10 × D_YTD, matching consistency condition 1.
const (
	initialWYTD = 30000000
	initialDYTD = 3000000
)

// warehouseGen generates WAREHOUSE rows wlo..whi; one stream per warehouse.
type warehouseGen struct {
	base
	started bool
}

func newWarehouseGen(p GenParams, sp span) *warehouseGen {
	return &warehouseGen{base: newBase(tWarehouse, p, sp)}
}

func (g *warehouseGen) Next() bool {
	if g.started {
		g.w++
	}
	g.started = true
	if g.w > g.sp.whi {
		return false
	}
	g.r = g.p.stream(tWarehouse, g.w, 0)
	g.int(0, g.w)
	g.astr(1, 6, 10) // w_name
	g.address(2)
	g.row[7].SetDec4(int64(g.r.Range(0, 2000))) // w_tax
	g.row[8].SetCents(initialWYTD)
	return true
}

// districtGen generates DISTRICT rows for warehouses wlo..whi, districts
// slo..shi; one stream per (warehouse, district).
type districtGen struct {
	base
	d int
}

func newDistrictGen(p GenParams, sp span) *districtGen {
	return &districtGen{base: newBase(tDistrict, p, sp), d: sp.slo - 1}
}

func (g *districtGen) Next() bool {
	g.d++
	if g.d > g.sp.shi {
		g.d = g.sp.slo
		g.w++
	}
	if g.w > g.sp.whi {
		return false
	}
	g.r = g.p.stream(tDistrict, g.w, g.d)
	g.int(0, g.d)
	g.int(1, g.w)
	g.astr(2, 6, 10) // d_name
	g.address(3)
	g.row[8].SetDec4(int64(g.r.Range(0, 2000))) // d_tax
	g.row[9].SetCents(initialDYTD)
	g.int(10, InitialNextOrderID)
	return true
}
