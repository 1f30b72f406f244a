package target_test

import (
	"context"
	"testing"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// TestMySQLPreparedStatementAllocations: on MySQL in prepared mode a point
// select through the protocol client allocates nothing per statement beyond
// the caller's variadic argument slice, and a write nothing at all beyond
// it either (issue 4: no avoidable allocations on the hot path).
func TestMySQLPreparedStatementAllocations(t *testing.T) {
	tg := testdb.For(t, target.MySQL, "target")
	ctx := context.Background()
	_, c := testdb.Connect(t, tg, target.Options{StatementMode: target.Prepared})
	if _, err := c.Exec(ctx, "CREATE TABLE IF NOT EXISTS alloc_ps (id INT PRIMARY KEY, amount DECIMAL(12,2), name VARCHAR(20))"); err != nil {
		t.Fatal(err)
	}
	c.Exec(ctx, "DELETE FROM alloc_ps")
	if _, err := c.Exec(ctx, "INSERT INTO alloc_ps VALUES (1, 12.34, 'x'), (70000, 0.5, 'y')"); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Prepare(ctx, "SELECT amount, id FROM alloc_ps WHERE id = ?")
	if err != nil {
		t.Fatal(err)
	}
	upd, err := c.Prepare(ctx, "UPDATE alloc_ps SET amount = ? WHERE id = ?")
	if err != nil {
		t.Fatal(err)
	}
	var amt target.Cents
	var id int64
	dest := []any{&amt, &id}
	args := []any{target.Cents(1234), int64(1)}
	one := []any{int64(1)}
	// An integer argument above 255 boxed in an interface is a heap
	// allocation of the caller (runtime.convT64); by pointer it is not, and
	// the client sends it without one (the sysbench terminals' arguments).
	var bigAmt target.Cents
	var bigID int64
	bigArg := int64(70000)
	bigDest, big := []any{&bigAmt, &bigID}, []any{&bigArg}
	tests := []struct {
		name string
		run  func() error
	}{
		{"point select", func() error { return sel.QueryRow(ctx, dest, one...) }},
		{"point select, id by pointer", func() error { return sel.QueryRow(ctx, bigDest, big...) }},
		{"update", func() error { _, err := upd.Exec(ctx, args...); return err }},
		{"transaction", func() error {
			if err := c.Begin(ctx, true); err != nil {
				return err
			}
			if _, err := upd.Exec(ctx, args...); err != nil {
				return err
			}
			return c.Commit(ctx)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if allocs := allocsPerStatement(t, tt.run); allocs > 0 {
				t.Errorf("%v allocations per statement, want 0", allocs)
			}
		})
	}
	if amt != 1234 || id != 1 || bigAmt != 50 || bigID != 70000 {
		t.Fatalf("scanned amount %v id %d, %v %d, want 12.34 1, 0.50 70000", amt, id, bigAmt, bigID)
	}
}

// allocsPerStatement returns the heap allocations per call of run (200
// calls); an error of run fails the test.
func allocsPerStatement(t *testing.T, run func() error) float64 {
	t.Helper()
	var runErr error
	allocs := testing.AllocsPerRun(200, func() {
		if err := run(); err != nil {
			runErr = err
		}
	})
	if runErr != nil {
		t.Fatal(runErr)
	}
	return allocs
}

// TestPGLeanPathAllocations: a point select into an integer and a money
// amount, and an update, allocate at most two objects per statement on
// PostgreSQL: pgconn's command tag (a string per CommandComplete) and, with
// TLS (sslmode=prefer, the test servers' default), crypto/tls's reader per
// record. Through pgx (before the lean path, measured the same way): 8 and
// 14. BEGIN and COMMIT run on pgconn's simple protocol with a socket
// deadline bounding the COMMIT, as on MySQL.
func TestPGLeanPathAllocations(t *testing.T) {
	tg := testdb.For(t, target.Postgres, "target")
	ctx := context.Background()
	_, c := testdb.Connect(t, tg, target.Options{StatementMode: target.Prepared})
	mustExec(t, c, "CREATE TABLE IF NOT EXISTS pgfast_alloc (id INT PRIMARY KEY, amount NUMERIC(12,2), k INT)")
	mustExec(t, c, "DELETE FROM pgfast_alloc")
	mustExec(t, c, "INSERT INTO pgfast_alloc VALUES (1, 12.34, 5), (70000, 0.5, 6)")
	sel := mustPrepare(t, c, "SELECT amount, k FROM pgfast_alloc WHERE id = ?")
	upd := mustPrepare(t, c, "UPDATE pgfast_alloc SET amount = ? WHERE id = ?")
	var amt target.Cents
	var k int64
	dest, one, two := []any{&amt, &k}, []any{int64(1)}, []any{target.Cents(1234), int64(1)}
	var bigAmt target.Cents
	var bigK int64
	bigArg := int64(70000) // by pointer: see TestMySQLPreparedStatementAllocations
	bigDest, big := []any{&bigAmt, &bigK}, []any{&bigArg}
	for _, tt := range []struct {
		name string
		max  float64
		run  func() error
	}{
		{"point select", 2, func() error { return sel.QueryRow(ctx, dest, one...) }},
		{"point select, id by pointer", 2, func() error { return sel.QueryRow(ctx, bigDest, big...) }},
		{"update", 2, func() error { _, err := upd.Exec(ctx, two...); return err }},
		// Two statements, each a command tag and a TLS read, and the
		// detached context of COMMIT (the caller's here is Background).
		// Through pgx: 16.
		{"begin, commit", 5, func() error {
			if err := c.Begin(ctx, true); err != nil {
				return err
			}
			return c.Commit(ctx)
		}},
	} {
		allocs := allocsPerStatement(t, tt.run)
		if allocs > tt.max {
			t.Errorf("%s: %v allocations per statement, want <= %v", tt.name, allocs, tt.max)
		}
		t.Logf("%s: %v allocations per statement", tt.name, allocs)
	}
	if amt != 1234 || k != 5 || bigAmt != 50 || bigK != 6 {
		t.Fatalf("scanned %v %d, %v %d", amt, k, bigAmt, bigK)
	}
}
