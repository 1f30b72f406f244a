package tpcc

import (
	"fmt"
	"sort"
	"strings"
)

// Names maps the nine TPC-C tables (plus benchpress's metadata table) to the
// physical names of one naming scheme (reference §1.3). Column names are the
// same in every scheme.
type Names struct {
	Scheme    string
	Warehouse string
	District  string
	Customer  string
	History   string
	NewOrder  string
	Orders    string
	OrderLine string
	Item      string
	Stock     string
	// Meta is benchpress's metadata table (scheme, warehouses, C-load
	// constants, schema version, finished load units).
	Meta string
}

var schemes = map[string]Names{
	"standard": {Scheme: "standard", Warehouse: "warehouse", District: "district", Customer: "customer", History: "history",
		NewOrder: "new_order", Orders: "orders", OrderLine: "order_line", Item: "item", Stock: "stock", Meta: "benchpress_meta"},
	"bmsql": {Scheme: "bmsql", Warehouse: "bmsql_warehouse", District: "bmsql_district", Customer: "bmsql_customer", History: "bmsql_history",
		NewOrder: "bmsql_new_order", Orders: "bmsql_oorder", OrderLine: "bmsql_order_line", Item: "bmsql_item", Stock: "bmsql_stock", Meta: "benchpress_meta"},
	"tpcc-mysql": {Scheme: "tpcc-mysql", Warehouse: "warehouse", District: "district", Customer: "customer", History: "history",
		NewOrder: "new_orders", Orders: "orders", OrderLine: "order_line", Item: "item", Stock: "stock", Meta: "benchpress_meta"},
}

// SchemeNames lists the valid --names values.
func SchemeNames() []string {
	var s []string
	for k := range schemes {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// NamesFor returns the scheme's table names.
func NamesFor(scheme string) (Names, error) {
	n, ok := schemes[scheme]
	if !ok {
		return Names{}, fmt.Errorf("unknown table-name scheme %q (valid: %s)", scheme, strings.Join(SchemeNames(), ", "))
	}
	return n, nil
}

// Tables returns the nine data tables in load order (ITEM first).
func (n Names) Tables() []string {
	return []string{n.Item, n.Warehouse, n.District, n.Customer, n.History, n.Orders, n.NewOrder, n.OrderLine, n.Stock}
}
