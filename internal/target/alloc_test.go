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
	if _, err := c.Exec(ctx, "INSERT INTO alloc_ps VALUES (1, 12.34, 'x')"); err != nil {
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
	tests := []struct {
		name string
		run  func() error
	}{
		{"point select", func() error { return sel.QueryRow(ctx, dest, one...) }},
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
			var runErr error
			allocs := testing.AllocsPerRun(200, func() {
				if err := tt.run(); err != nil {
					runErr = err
				}
			})
			if runErr != nil {
				t.Fatal(runErr)
			}
			if allocs > 0 {
				t.Errorf("%v allocations per statement, want 0", allocs)
			}
		})
	}
	if amt != 1234 || id != 1 {
		t.Fatalf("scanned amount %v id %d, want 12.34 1", amt, id)
	}
}
