package tpcc

import (
	"fmt"

	"benchpress/internal/load"
	"benchpress/internal/randgen"
)

// GenParams fix a data set. Every generated row is a pure function of these
// parameters, the table and the row's position (warehouse, district, id):
// each (table, warehouse, district) — or (table, warehouse, 10,000-item
// chunk) for ITEM and STOCK — has its own random stream, so any unit can be
// generated alone, in any order, with identical results.
type GenParams struct {
	Seed      uint64
	CLoadLast int   // NURand C for C_LAST at load (clause 2.1.6), 0..255
	LoadTime  int64 // Unix seconds: c_since, h_date, o_entry_d, ol_delivery_d
}

// Logical table identifiers (also the random-stream tags).
type tableID uint8

const (
	tItem tableID = iota + 1
	tWarehouse
	tDistrict
	tCustomer
	tHistory
	tOrders
	tNewOrder
	tOrderLine
	tStock
	tOlCnt // O_OL_CNT stream shared by ORDER and ORDER-LINE
)

// ItemChunk is the granularity of ITEM and STOCK random streams (and of
// their load units).
const ItemChunk = 10000

var tableNames = map[tableID]string{tItem: "item", tWarehouse: "warehouse", tDistrict: "district",
	tCustomer: "customer", tHistory: "history", tOrders: "orders", tNewOrder: "new_order",
	tOrderLine: "order_line", tStock: "stock"}

// physical returns t's table name under scheme names.
func (t tableID) physical(n Names) string {
	switch t {
	case tItem:
		return n.Item
	case tWarehouse:
		return n.Warehouse
	case tDistrict:
		return n.District
	case tCustomer:
		return n.Customer
	case tHistory:
		return n.History
	case tOrders:
		return n.Orders
	case tNewOrder:
		return n.NewOrder
	case tOrderLine:
		return n.OrderLine
	case tStock:
		return n.Stock
	}
	return ""
}

// stream returns the random stream of (table, warehouse, sub) where sub is a
// district id or an item chunk number.
func (p GenParams) stream(t tableID, w, sub int) *randgen.Rand {
	return randgen.New(p.Seed, uint64(t)<<56|uint64(w)<<16|uint64(sub))
}

// Columns per table, in the order of reference §1.2.
var columns = map[tableID][]string{
	tItem:      {"i_id", "i_im_id", "i_name", "i_price", "i_data"},
	tWarehouse: {"w_id", "w_name", "w_street_1", "w_street_2", "w_city", "w_state", "w_zip", "w_tax", "w_ytd"},
	tDistrict: {"d_id", "d_w_id", "d_name", "d_street_1", "d_street_2", "d_city", "d_state", "d_zip", "d_tax",
		"d_ytd", "d_next_o_id"},
	tCustomer: {"c_id", "c_d_id", "c_w_id", "c_first", "c_middle", "c_last", "c_street_1", "c_street_2", "c_city",
		"c_state", "c_zip", "c_phone", "c_since", "c_credit", "c_credit_lim", "c_discount", "c_balance",
		"c_ytd_payment", "c_payment_cnt", "c_delivery_cnt", "c_data"},
	tHistory:  {"h_c_id", "h_c_d_id", "h_c_w_id", "h_d_id", "h_w_id", "h_date", "h_amount", "h_data"},
	tOrders:   {"o_id", "o_d_id", "o_w_id", "o_c_id", "o_entry_d", "o_carrier_id", "o_ol_cnt", "o_all_local"},
	tNewOrder: {"no_o_id", "no_d_id", "no_w_id"},
	tOrderLine: {"ol_o_id", "ol_d_id", "ol_w_id", "ol_number", "ol_i_id", "ol_supply_w_id", "ol_delivery_d",
		"ol_quantity", "ol_amount", "ol_dist_info"},
	tStock: {"s_i_id", "s_w_id", "s_quantity", "s_dist_01", "s_dist_02", "s_dist_03", "s_dist_04", "s_dist_05",
		"s_dist_06", "s_dist_07", "s_dist_08", "s_dist_09", "s_dist_10", "s_ytd", "s_order_cnt", "s_remote_cnt",
		"s_data"},
}

// span is the part of a table one source generates: warehouses wlo..whi and,
// within each, sub-positions slo..shi (districts 1..10, or item ids for
// ITEM/STOCK, aligned to ItemChunk).
type span struct{ wlo, whi, slo, shi int }

// base is the cursor shared by the generators: it walks (w, sub) over a span
// and owns the reusable row.
type base struct {
	p    GenParams
	cols []string
	row  []load.Field
	sp   span
	w    int // current warehouse
	r    *randgen.Rand
}

func newBase(t tableID, p GenParams, sp span) base {
	cols := columns[t]
	row := make([]load.Field, len(cols))
	for i := range row {
		row[i].B = make([]byte, 0, 64)
	}
	return base{p: p, cols: cols, row: row, sp: sp, w: sp.wlo}
}

func (b *base) Columns() []string   { return b.cols }
func (b *base) Row() []load.Field   { return b.row }
func (b *base) int(i int, v int)    { b.row[i].SetInt(int64(v)) }
func (b *base) astr(i, x, y int)    { f := &b.row[i]; f.B = b.r.AppendAString(f.Text(), x, y) }
func (b *base) str(i int, s string) { f := &b.row[i]; f.B = append(f.Text(), s...) }

// address fills street_1, street_2, city, state, zip at columns i..i+4
// (clause 4.3.2.7 via 4.3.3.1).
func (b *base) address(i int) {
	b.astr(i, 10, 20)
	b.astr(i+1, 10, 20)
	b.astr(i+2, 10, 20)
	f := &b.row[i+3]
	f.B = b.r.AppendState(f.Text())
	f = &b.row[i+4]
	f.B = b.r.AppendZip(f.Text())
}

// NewSource returns the row source for logical table name (standard scheme
// name: "item", "stock", ...) covering warehouses wlo..whi and, within each,
// sub-positions slo..shi: district ids for district-level tables, item ids
// for ITEM and STOCK (slo-1 and shi multiples of ItemChunk), ignored for
// WAREHOUSE. ITEM ignores the warehouse range.
func NewSource(table string, p GenParams, wlo, whi, slo, shi int) (load.RowSource, error) {
	for t, name := range tableNames {
		if name == table {
			return newSource(t, p, span{wlo, whi, slo, shi}), nil
		}
	}
	return nil, fmt.Errorf("tpcc: unknown table %q", table)
}

func newSource(t tableID, p GenParams, sp span) load.RowSource {
	switch t {
	case tItem:
		return newItemGen(p, sp)
	case tWarehouse:
		return newWarehouseGen(p, sp)
	case tDistrict:
		return newDistrictGen(p, sp)
	case tCustomer:
		return newCustomerGen(p, sp)
	case tHistory:
		return newHistoryGen(p, sp)
	case tOrders:
		return newOrdersGen(p, sp)
	case tNewOrder:
		return newNewOrderGen(p, sp)
	case tOrderLine:
		return newOrderLineGen(p, sp)
	case tStock:
		return newStockGen(p, sp)
	}
	panic("tpcc: unknown table id")
}

// originalPick implements the ORIGINAL rule's row choice (clause 4.3.3.1:
// 10% of rows, selected at random): in every block of 10 consecutive ids
// exactly one, at a random position, gets "ORIGINAL". id is 1-based.
type originalPick struct{ pick int }

func (o *originalPick) is(r *randgen.Rand, id int) bool {
	pos := (id - 1) % 10
	if pos == 0 {
		o.pick = r.Range(0, 9)
	}
	return pos == o.pick
}
