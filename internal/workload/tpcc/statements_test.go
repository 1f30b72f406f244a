package tpcc

import (
	"strings"
	"testing"
)

func TestStatementBudget(t *testing.T) {
	names, _ := NamesFor("standard")
	w, err := New(Config{Mix: DefaultMix, Names: names, Seed: 1}, Meta{Warehouses: 1, Scheme: "standard"})
	if err != nil {
		t.Fatal(err)
	}
	kinds := w.StatementKinds()
	// 6 + 3 padded New-Order statements + 11 order-line inserts, 10 Payment,
	// 3 Order-Status, 1 + 6x10 Delivery, 2 Stock-Level.
	if want := 6 + 3 + 11 + 10 + 3 + 1 + 60 + 2; kinds != want {
		t.Fatalf("StatementKinds = %d, want %d", kinds, want)
	}
	tests := []struct {
		name   string
		budget int
		want   int
	}{
		{"unlimited", -1, kinds},
		{"more than needed", kinds + 5, kinds},
		{"2048 terminals on the default limit", 16382 / 2048, 7},
		{"none", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := w.SetStatementBudget(tt.budget)
			if got != tt.want {
				t.Fatalf("SetStatementBudget(%d) = %d, want %d", tt.budget, got, tt.want)
			}
			if tt.want == kinds {
				if w.serverSide != nil {
					t.Fatalf("unlimited budget should prepare everything, got a set of %d", len(w.serverSide))
				}
				return
			}
			if len(w.serverSide) != tt.want {
				t.Fatalf("server-side set has %d statements, want %d", len(w.serverSide), tt.want)
			}
			// The most frequent statements come first: with 7, all are New-Order's.
			for _, e := range w.catalog()[:tt.want] {
				if e.op != OpNewOrder {
					t.Fatalf("statement of op %d prepared before New-Order's: %s", e.op, e.sql)
				}
			}
		})
	}
}

// In the per-line shape (through sharding proxies) the catalog holds the
// statements that shape executes, ranked by their executions: the per-line
// New-Order statements (10 per transaction) first, none of the batched
// shape's.
func TestStatementCatalogPerLine(t *testing.T) {
	names, _ := NamesFor("standard")
	w, err := New(Config{Mix: DefaultMix, Names: names, Seed: 1, Shape: ShapePerLine}, Meta{Warehouses: 1, Scheme: "standard"})
	if err != nil {
		t.Fatal(err)
	}
	// New-Order: 6 common + item, stock update, line insert + 10 stock
	// reads by district; Payment 10; Order-Status 3; Delivery: the oldest
	// order + 6 per district; Stock-Level 2.
	cat := w.catalog()
	if want := 6 + 3 + 10 + 10 + 3 + 1 + 6 + 2; len(cat) != want {
		t.Fatalf("%d statements in the per-line catalog, want %d", len(cat), want)
	}
	batched := map[string]bool{selItemsSQL(MaxOrderLines): true, selStocksSQL(MaxOrderLines): true, updStocksSQL(MaxOrderLines): true}
	for k := 2; k <= MaxOrderLines; k++ {
		batched[insLinesSQL(k)] = true
	}
	for i, e := range cat {
		if batched[e.sql] {
			t.Errorf("batched statement in the per-line catalog: %s", e.sql)
		}
		if i < 3 && (e.op != OpNewOrder || e.share != 10) {
			t.Errorf("statement %d: op %d share %g (%s), want a per-line New-Order statement", i, e.op, e.share, e.sql)
		}
	}
}

// A column read and then written back from the value read is read under
// the row's lock: Payment's C_DATA (a plain read under InnoDB's REPEATABLE
// READ returns the transaction's snapshot, and a concurrent Payment's entry
// would be lost).
func TestReadForWriteBackLocked(t *testing.T) {
	names, _ := NamesFor("standard")
	w, err := New(Config{Mix: DefaultMix, Names: names, Seed: 1}, Meta{Warehouses: 1, Scheme: "standard"})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range w.catalog() {
		if strings.HasPrefix(e.sql, "SELECT c_data ") {
			found = true
			if !strings.Contains(e.sql, "{fu}") && !strings.Contains(e.sql, "FOR UPDATE") {
				t.Errorf("%s: want FOR UPDATE", e.sql)
			}
		}
	}
	if !found {
		t.Fatal("no SELECT c_data in the catalog")
	}
}
