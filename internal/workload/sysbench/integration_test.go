package sysbench

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"benchpress/internal/runner"
	"benchpress/internal/target"
	"benchpress/internal/testdb"
	"benchpress/internal/workload"
)

// TestIntegration prepares 2 tables × 1000 rows and runs every test for 2 s
// with 2 threads on SQLite, MariaDB and PostgreSQL (databases in parallel,
// tests in sequence within one database).
func TestIntegration(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test")
	}
	for _, tg := range testdb.All(t, "sysbench") {
		t.Run(string(tg.Kind), func(t *testing.T) {
			t.Parallel()
			conn, err := target.NewConnector(tg, target.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			for _, test := range Tests() {
				t.Run(test, func(t *testing.T) { runOne(t, conn, test) })
			}
		})
	}
}

func runOne(t *testing.T, d *target.Connector, test string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	o := DefaultOptions()
	o.Tables, o.TableSize = 2, 1000
	w, err := New(test, o)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := d.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if err := Cleanup(ctx, admin, o); err != nil {
		t.Fatal(err)
	}
	if err := w.CheckPrepared(ctx, admin); !errors.Is(err, workload.ErrNotPrepared) {
		t.Fatalf("CheckPrepared before prepare = %v, want ErrNotPrepared", err)
	}
	var loaded int64
	var mu = make(chan struct{}, 1)
	if err := w.Prepare(ctx, d, 2, func(_ string, n int64) { mu <- struct{}{}; loaded += n; <-mu }); err != nil {
		t.Fatal(err)
	}
	before := countRows(t, admin, o.Tables)
	if want := int64(o.Tables * o.TableSize); before != want || loaded != want {
		t.Fatalf("prepared %d rows (progress %d), want %d", before, loaded, want)
	}
	if err := w.CheckPrepared(ctx, admin); err != nil {
		t.Fatal(err)
	}
	wrong := o
	wrong.TableSize = 2000
	if err := CheckPrepared(ctx, admin, wrong); !errors.Is(err, workload.ErrScaleMismatch) {
		t.Errorf("CheckPrepared with table_size 2000 = %v, want ErrScaleMismatch", err)
	}

	res, err := runner.Run(ctx, runner.Config{Terminals: 2, Duration: 2 * time.Second, MaxRetries: 10}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Cumulative.Counts[0]
	ex := res.Cumulative.Extra
	t.Logf("%s: %d events (%.0f/s), %d retries, r/w/o %d/%d/%d, ignored %d",
		test, c.OK, float64(c.OK)/res.MeasuredSeconds(), c.Retries, ex[exReads], ex[exWrites], ex[exOthers], ex[exIgnored])
	if c.OK == 0 {
		t.Fatal("no events")
	}
	if n := c.Errors(); n > 0 {
		t.Fatalf("%d errors: %v", n, c.Errs)
	}
	after := countRows(t, admin, o.Tables)
	switch test {
	case Insert:
		if after-before < ex[exWrites] || after-before > ex[exWrites]+2 {
			t.Errorf("rows %d -> %d, but %d inserts counted", before, after, ex[exWrites])
		}
	case Delete:
		if after >= before || before-after > ex[exWrites]+2 {
			t.Errorf("rows %d -> %d after %d deletes", before, after, ex[exWrites])
		}
	default:
		if after != before {
			t.Errorf("rows %d -> %d, want unchanged", before, after)
		}
	}
	if err := Cleanup(ctx, admin, o); err != nil {
		t.Error(err)
	}
}

func countRows(t *testing.T, conn target.Conn, tables int) int64 {
	t.Helper()
	var total int64
	for n := 1; n <= tables; n++ {
		rows, err := conn.Query(context.Background(), fmt.Sprintf("SELECT COUNT(*) FROM sbtest%d", n))
		if err != nil {
			t.Fatal(err)
		}
		var c int64
		for rows.Next() {
			if err := rows.Scan(&c); err != nil {
				t.Fatal(err)
			}
		}
		rows.Close()
		total += c
	}
	return total
}
