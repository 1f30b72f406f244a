package tpcc

import (
	"context"
	"sync"
	"testing"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// txnFixtures loads the transactions' data set once per process and server
// kind: the integration tests of this package share it (they only add
// orders to it).
var txnFixtures sync.Map // target.Kind -> *txnFixture

type txnFixture struct {
	once sync.Once
	err  error
}

// txnWarehouses is the fixture's size: two warehouses (remote lines and
// payments happen), one on SQLite (a single writer keeps the load short).
func txnWarehouses(kind target.Kind) int {
	if kind == target.SQLite {
		return 1
	}
	return 2
}

// loadTxnFixture prepares tgt's data set unless this process already did.
func loadTxnFixture(t *testing.T, tgt *target.Target) {
	t.Helper()
	v, _ := txnFixtures.LoadOrStore(tgt.Kind, new(txnFixture))
	f := v.(*txnFixture)
	f.once.Do(func() {
		conn, err := target.NewConnector(tgt, target.Options{})
		if err != nil {
			f.err = err
			return
		}
		defer conn.Close()
		names, _ := NamesFor("standard")
		_, f.err = Prepare(context.Background(), conn, PrepareConfig{
			Warehouses: txnWarehouses(tgt.Kind), Threads: 2, Seed: 1, Drop: true, Names: names})
	})
	if f.err != nil {
		t.Fatalf("prepare: %v", f.err)
	}
}

// txnSession loads tgt's shared fixture and opens a session on it (closed
// with the test), with the data set's names and metadata.
func txnSession(t *testing.T, tgt *target.Target, opts target.Options) (target.Conn, Names, Meta) {
	t.Helper()
	loadTxnFixture(t, tgt)
	ctx := context.Background()
	conn, err := target.NewConnector(tgt, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c, err := conn.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	names, _ := NamesFor("standard")
	meta, err := ReadMeta(ctx, c, names)
	if err != nil {
		t.Fatal(err)
	}
	return c, names, meta
}

// allocBudget is the most heap objects a transaction may cost the
// terminal and the client together, per server kind, in prepared mode,
// averaged over 200 transactions of one type. The terminals bind integers,
// amounts, timestamps and strings by pointer (argSlots, target.TextBuf) and
// scan character columns into reusable buffers. Measured on 2026-11-27:
// before that a New-Order cost 161 objects on MySQL and 187 on PostgreSQL,
// a Payment 33 and 58, an Order-Status 5 and 53, a Delivery 70 and 127, a
// Stock-Level 2 and 11; after it, none on MySQL, and on PostgreSQL 25, 20,
// 12, 37 and 9: pgconn's command tag and crypto/tls's record reader, about
// two per statement (TestPGLeanPathAllocations).
var allocBudget = map[target.Kind][NumOps]float64{
	target.MySQL:    {OpNewOrder: 1, OpPayment: 1, OpOrderStatus: 1, OpDelivery: 1, OpStockLevel: 1},
	target.Postgres: {OpNewOrder: 30, OpPayment: 24, OpOrderStatus: 16, OpDelivery: 44, OpStockLevel: 12},
}

// perLineBudget is allocBudget for ShapePerLine (a statement per order
// line and per district: PostgreSQL's two per statement add up; measured
// 97 per New-Order and 145 per Delivery on 2026-11-27, 214 and 194 before).
var perLineBudget = map[target.Kind][NumOps]float64{
	target.MySQL:    {OpNewOrder: 1, OpPayment: 1, OpOrderStatus: 1, OpDelivery: 1, OpStockLevel: 1},
	target.Postgres: {OpNewOrder: 110, OpPayment: 24, OpOrderStatus: 16, OpDelivery: 160, OpStockLevel: 12},
}

// TestTerminalAllocations runs each transaction type many times on one
// terminal against the real servers and bounds the heap objects it costs
// (allocBudget).
func TestTerminalAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test")
	}
	for _, tgt := range testdb.All(t, "tpcc_txn") {
		budget, ok := allocBudget[tgt.Kind]
		if !ok {
			continue // SQLite: database/sql's own allocations dominate
		}
		t.Run(string(tgt.Kind), func(t *testing.T) {
			ctx := context.Background()
			c, names, meta := txnSession(t, tgt, target.Options{StatementMode: target.Prepared})
			for _, shape := range []TxnShape{ShapeBatched, ShapePerLine} {
				t.Run(string(shape), func(t *testing.T) {
					budget := budget
					if shape == ShapePerLine {
						budget = perLineBudget[tgt.Kind]
					}
					w, err := New(Config{Warehouses: txnWarehouses(tgt.Kind), Mix: DefaultMix, Names: names, Seed: 7, Shape: shape}, meta)
					if err != nil {
						t.Fatal(err)
					}
					wt, err := w.NewTerminal(ctx, 0, 1, c)
					if err != nil {
						t.Fatal(err)
					}
					term := wt.(*Terminal)
					defer term.Close()
					for op := 0; op < NumOps; op++ {
						run := func() {
							term.Next()
							if _, err := term.Exec(ctx, op); err != nil {
								t.Fatalf("%s: %v", OpNames[op], err)
							}
						}
						for i := 0; i < 20; i++ { // lazily prepared statements, buffers at size
							run()
						}
						got := testing.AllocsPerRun(200, run)
						t.Logf("%s: %.1f heap objects per transaction", OpNames[op], got)
						if got > budget[op] {
							t.Errorf("%s: %.1f heap objects per transaction, budget %.0f", OpNames[op], got, budget[op])
						}
					}
				})
			}
		})
	}
}
