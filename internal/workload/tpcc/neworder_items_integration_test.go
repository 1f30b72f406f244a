package tpcc

import (
	"context"
	"errors"
	"testing"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// A New-Order whose item is missing is the spec's rollback only when it
// was drawn as one (clause 2.4.1.4: the unused id on the last line of the
// 1 % rollback orders); any other missing item (an incomplete ITEM table,
// a proxy's broadcast copy) fails the transaction instead of counting as a
// completed New-Order. Both statement shapes.
func TestNewOrderMissingItem(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test")
	}
	for _, tgt := range testdb.All(t, "tpcc_txn") {
		if tgt.Kind == target.SQLite {
			continue // its file is the test's own: loadTxnFixture loads a kind once per process
		}
		t.Run(string(tgt.Kind), func(t *testing.T) {
			ctx := context.Background()
			c, names, meta := txnSession(t, tgt, target.Options{})
			for _, shape := range []TxnShape{ShapeBatched, ShapePerLine} {
				w, err := New(Config{Warehouses: txnWarehouses(tgt.Kind), Mix: DefaultMix, Names: names, Seed: 7, Shape: shape}, meta)
				if err != nil {
					t.Fatal(err)
				}
				wt, err := w.NewTerminal(ctx, 0, 1, c)
				if err != nil {
					t.Fatal(err)
				}
				term := wt.(*Terminal)
				for _, tc := range []struct {
					name   string
					rbk    bool
					line   func(k int) int // the line given the unused id
					want   metrics.Outcome
					failed bool
				}{
					{"drawn rollback", true, func(k int) int { return k - 1 }, metrics.Rollback, false},
					{"missing item, not a rollback order", false, func(k int) int { return k - 1 }, metrics.Failed, true},
					{"rollback order, missing item not on the last line", true, func(int) int { return 0 }, metrics.Failed, true},
				} {
					term.drawNewOrder()
					n := &term.no
					for i := 0; i < n.olCnt; i++ {
						if n.lines[i].iID == unusedItemID {
							n.lines[i].iID = freeItem(n.lines[:n.olCnt])
						}
					}
					n.rbk = tc.rbk
					n.lines[tc.line(n.olCnt)].iID = unusedItemID
					sortLines(n.lines[:n.olCnt], n.order[:n.olCnt])
					term.args.reset()
					out, err := term.newOrder(ctx, false)
					if out != tc.want || (err != nil) != tc.failed || (tc.failed && !errors.Is(err, errItemMissing)) {
						t.Errorf("%s, %s: outcome %v err %v, want %v (failed %v)", shape, tc.name, out, err, tc.want, tc.failed)
					}
				}
				term.Close()
			}
		})
	}
}

// freeItem is a valid item id none of lines has (ids are distinct).
func freeItem(lines []orderLine) int {
	for id := 1; ; id++ {
		used := false
		for _, l := range lines {
			used = used || l.iID == id
		}
		if !used {
			return id
		}
	}
}
