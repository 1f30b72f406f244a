package tpcc

import (
	"strings"
	"testing"

	"benchpress/internal/target"
)

func TestSortLines(t *testing.T) {
	tests := []struct {
		name  string
		lines []orderLine
		want  []int
	}{
		{"already sorted", []orderLine{{iID: 1, supply: 1}, {iID: 2, supply: 1}}, []int{0, 1}},
		{"by item", []orderLine{{iID: 9, supply: 1}, {iID: 3, supply: 1}, {iID: 5, supply: 1}}, []int{1, 2, 0}},
		{"supply first", []orderLine{{iID: 1, supply: 2}, {iID: 50, supply: 1}, {iID: 2, supply: 1}}, []int{2, 1, 0}},
		{"rollback id sorts last in its warehouse", []orderLine{{iID: unusedItemID, supply: 1}, {iID: 7, supply: 1}, {iID: 3, supply: 2}}, []int{1, 0, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			order := make([]int, len(tc.lines))
			sortLines(tc.lines, order)
			for i := range order {
				if order[i] != tc.want[i] {
					t.Fatalf("order %v, want %v", order, tc.want)
				}
			}
		})
	}
}

func TestMiddleIndex(t *testing.T) {
	for n, want := range map[int]int{1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2, 7: 3} {
		if got := middleIndex(n); got != want {
			t.Errorf("middleIndex(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestDrawNewOrder checks the input rules over many draws: distinct items,
// the unused id only on the last line of rollback orders, 1 % remote lines,
// ~1 % rollbacks, 5..15 lines.
func TestDrawNewOrder(t *testing.T) {
	w, err := New(Config{Mix: DefaultMix, Names: testNamesStd(), Seed: 3}, Meta{Warehouses: 4, CLoadLast: 100, CID: 5, COLIID: 77})
	if err != nil {
		t.Fatal(err)
	}
	term := &Terminal{w: w, nw: 4, wID: 2}
	term.r = newTestRandTPCC()
	const n = 200000
	var lines, remote, rbk int
	for i := 0; i < n; i++ {
		term.drawNewOrder()
		no := &term.no
		if no.olCnt < 5 || no.olCnt > 15 {
			t.Fatalf("ol_cnt %d", no.olCnt)
		}
		seen := map[int]bool{}
		for j, l := range no.lines[:no.olCnt] {
			if seen[l.iID] {
				t.Fatalf("duplicate item %d", l.iID)
			}
			seen[l.iID] = true
			if l.iID == unusedItemID && (j != no.olCnt-1 || !no.rbk) {
				t.Fatalf("unused id on line %d of %d (rbk %v)", j+1, no.olCnt, no.rbk)
			}
			if l.supply != term.wID {
				remote++
				if l.supply < 1 || l.supply > 4 {
					t.Fatalf("supply %d", l.supply)
				}
			}
			if l.qty < 1 || l.qty > 10 {
				t.Fatalf("qty %d", l.qty)
			}
		}
		lines += no.olCnt
		if no.rbk {
			rbk++
		}
	}
	if pct := 100 * float64(remote) / float64(lines); pct < 0.95 || pct > 1.05 {
		t.Errorf("remote lines %.3f%%", pct)
	}
	if pct := 100 * float64(rbk) / n; pct < 0.9 || pct > 1.1 {
		t.Errorf("rollbacks %.3f%%", pct)
	}
	if avg := float64(lines) / n; avg < 9.9 || avg > 10.1 {
		t.Errorf("avg lines %.3f", avg)
	}
}

func TestBadCreditData(t *testing.T) {
	term := &Terminal{buf: make([]byte, 0, 512), wID: 1}
	term.pa.cDID, term.pa.cWID, term.pa.dID = 3, 2, 4
	term.pa.amount = target.Cents(123405)
	term.pa.cData.SetString("OLD")
	if got, want := term.badCreditData(17).String(), "17 3 2 4 1 1234.05 | OLD"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	long := make([]byte, 500)
	for i := range long {
		long[i] = 'x'
	}
	term.pa.cData.Set(long)
	got := term.badCreditData(17).String()
	if len(got) != 500 || got[:5] != "17 3 " || got[len(got)-1] != 'x' {
		t.Errorf("truncation: len %d, prefix %q", len(got), got[:5])
	}
}

// TestBatchedSQLPlaceholders checks that each batched statement has as many
// placeholders as its caller binds arguments, for every row count.
func TestBatchedSQLPlaceholders(t *testing.T) {
	type builder struct {
		name  string
		build func(int) string
		args  func(k int) int
		min   int
		max   int
	}
	for _, b := range []builder{
		{"selItems", selItemsSQL, func(k int) int { return k }, 5, 15},
		{"selStocks", selStocksSQL, func(k int) int { return 1 + 2*k }, 5, 15},
		{"updStocks", updStocksSQL, func(k int) int { return 6*k + 1 }, 5, 15},
		{"insLines", insLinesSQL, func(k int) int { return 9 * k }, 5, 15},
		{"delNewOrders", delNewOrdersSQL, func(k int) int { return 1 + 2*k }, 1, 10},
		{"selOrderCusts", selOrderCustsSQL, func(k int) int { return 1 + 2*k }, 1, 10},
		{"updOrders", updOrdersSQL, func(k int) int { return 2 + 2*k }, 1, 10},
		{"updLines", updLinesSQL, func(k int) int { return 2 + 2*k }, 1, 10},
		{"sumLines", sumLinesSQL, func(k int) int { return 1 + 2*k }, 1, 10},
		{"updCustomers", updCustomersSQL, func(k int) int { return 4*k + 1 }, 1, 10},
	} {
		for k := b.min; k <= b.max; k++ {
			sql := b.build(k)
			if got, want := strings.Count(sql, "?"), b.args(k); got != want {
				t.Errorf("%s(%d): %d placeholders, want %d: %s", b.name, k, got, want, sql)
			}
			if strings.Count(sql, "(") != strings.Count(sql, ")") {
				t.Errorf("%s(%d): unbalanced parentheses: %s", b.name, k, sql)
			}
		}
	}
}
