package target_test

import (
	"context"
	"testing"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// BenchmarkPointSelect measures one prepared point select per iteration,
// the shape of most OLTP statements, per driver and statement mode.
func BenchmarkPointSelect(b *testing.B) {
	for _, tg := range testdb.Targets(b) {
		for _, mode := range modes {
			b.Run(string(tg.Kind)+"/"+string(mode), func(b *testing.B) {
				ctx := context.Background()
				_, c := testdb.Connect(b, tg, target.Options{StatementMode: mode})
				if _, err := c.Exec(ctx, "CREATE TABLE IF NOT EXISTS bench_ps (id INT PRIMARY KEY, amount DECIMAL(12,2))"); err != nil {
					b.Fatal(err)
				}
				c.Exec(ctx, "DELETE FROM bench_ps")
				if _, err := c.Exec(ctx, "INSERT INTO bench_ps VALUES (1, 12.34)"); err != nil {
					b.Fatal(err)
				}
				st, err := c.Prepare(ctx, "SELECT amount FROM bench_ps WHERE id = ?")
				if err != nil {
					b.Fatal(err)
				}
				var amt target.Cents
				dest := []any{&amt}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := st.QueryRow(ctx, dest, 1); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
