package tpcc

import (
	"database/sql"
	"strings"
	"testing"

	"benchpress/internal/target"

	_ "modernc.org/sqlite"
)

// TestBatchedSQLitePlans checks that the embedded SQLite answers every
// batched statement with primary-key searches: the row-value IN lists are
// scanned as constant rows, each looked up in the table's primary key
// (SQLite 3.40's shell plans the same statements as full scans of the
// table).
func TestBatchedSQLitePlans(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	n := testNamesStd()
	for _, tb := range createOrder {
		if _, err := db.Exec(createTableSQL(target.SQLite, n, tb)); err != nil {
			t.Fatal(err)
		}
	}
	repl := strings.NewReplacer(
		"{warehouse}", n.Warehouse, "{district}", n.District, "{customer}", n.Customer,
		"{history}", n.History, "{new_order}", n.NewOrder, "{orders}", n.Orders,
		"{order_line}", n.OrderLine, "{item}", n.Item, "{stock}", n.Stock, "{fu}", "")
	for _, b := range []struct {
		name  string
		build func(int) string
		k     int
	}{
		{"selItems", selItemsSQL, 15}, {"selStocks", selStocksSQL, 15}, {"updStocks", updStocksSQL, 15},
		{"delNewOrders", delNewOrdersSQL, 10}, {"selOrderCusts", selOrderCustsSQL, 10},
		{"updOrders", updOrdersSQL, 10}, {"updLines", updLinesSQL, 10}, {"sumLines", sumLinesSQL, 10},
		{"updCustomers", updCustomersSQL, 10},
	} {
		q := repl.Replace(b.build(b.k))
		args := make([]any, strings.Count(q, "?"))
		for i := range args {
			args[i] = i + 1
		}
		rows, err := db.Query("EXPLAIN QUERY PLAN "+q, args...)
		if err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
			if strings.HasPrefix(detail, "SCAN ") && !strings.HasSuffix(detail, "CONSTANT ROWS") {
				t.Errorf("%s: full scan %q", b.name, detail)
			}
		}
		rows.Close()
		if len(plan) == 0 || !strings.Contains(strings.Join(plan, "\n"), "SEARCH") {
			t.Errorf("%s: no index search in plan %q", b.name, plan)
		}
	}
}
