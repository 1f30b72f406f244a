package target_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// TestGuardInterruptsBlockedStatement: a statement waiting for a row lock
// ends when the caller's context ends (the per-session guard replaces the
// drivers' per-query context watch), and the session holding the lock is
// unaffected.
func TestGuardInterruptsBlockedStatement(t *testing.T) {
	for _, tg := range testdb.Targets(t) {
		if tg.Kind == target.SQLite {
			continue
		}
		t.Run(string(tg.Kind), func(t *testing.T) {
			ctx := context.Background()
			_, a := testdb.Connect(t, tg, target.Options{})
			cb, b := testdb.Connect(t, tg, target.Options{})
			if _, err := a.Exec(ctx, "CREATE TABLE IF NOT EXISTS guard_lock (id INT PRIMARY KEY, v INT)"); err != nil {
				t.Fatal(err)
			}
			a.Exec(ctx, "DELETE FROM guard_lock")
			if _, err := a.Exec(ctx, "INSERT INTO guard_lock VALUES (1, 0)"); err != nil {
				t.Fatal(err)
			}
			if err := a.Begin(ctx, true); err != nil {
				t.Fatal(err)
			}
			if _, err := a.Exec(ctx, "UPDATE guard_lock SET v = v + 1 WHERE id = ?", 1); err != nil {
				t.Fatal(err)
			}
			st, err := b.Prepare(ctx, "UPDATE guard_lock SET v = v + 1 WHERE id = ?")
			if err != nil {
				t.Fatal(err)
			}
			// A first statement on the context registers the guard's watch.
			bctx, cancel := context.WithCancel(ctx)
			defer cancel()
			if _, err := b.Exec(bctx, "SELECT 1"); err != nil {
				t.Fatal(err)
			}
			time.AfterFunc(300*time.Millisecond, cancel)
			start := time.Now()
			_, err = st.Exec(bctx, 1)
			if el := time.Since(start); el > 5*time.Second {
				t.Fatalf("blocked statement ran %v after cancellation", el)
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if err := a.Commit(ctx); err != nil {
				t.Fatalf("lock holder's commit: %v", err)
			}
			// The interrupted session is not pooled with its dead socket:
			// the connector's next session works.
			_ = b.Rollback(ctx)
			_ = b.Close()
			for i := 0; i < 3; i++ {
				c, err := cb.Connect(ctx)
				if err != nil {
					t.Fatalf("session %d after the interrupt: %v", i, err)
				}
				if _, err := c.Exec(ctx, "SELECT 1"); err != nil {
					t.Fatalf("session %d after the interrupt: %v", i, err)
				}
				_ = c.Close()
			}
		})
	}
}
