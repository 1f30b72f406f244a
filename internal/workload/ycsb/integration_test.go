package ycsb

import (
	"context"
	"errors"
	"testing"
	"time"

	"benchpress/internal/runner"
	"benchpress/internal/target"
	"benchpress/internal/testdb"
	"benchpress/internal/workload"
)

// TestIntegration loads 1000 records and runs each workload A–F for 2 s with
// 2 threads on SQLite, MariaDB and PostgreSQL (databases in parallel). Each
// workload gets a fresh load, since D and E insert records.
func TestIntegration(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test")
	}
	for _, tg := range testdb.All(t, "ycsb") {
		t.Run(string(tg.Kind), func(t *testing.T) {
			t.Parallel()
			d, err := target.NewConnector(tg, target.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			for _, name := range Workloads() {
				t.Run(name, func(t *testing.T) { runWorkload(t, d, name) })
			}
		})
	}
}

func runWorkload(t *testing.T, d *target.Connector, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := Properties(name)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := d.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if err := Cleanup(ctx, admin, p); err != nil {
		t.Fatal(err)
	}
	if err := CheckLoaded(ctx, admin, p); !errors.Is(err, workload.ErrNotPrepared) {
		t.Fatalf("CheckLoaded before load = %v, want ErrNotPrepared", err)
	}
	if err := Load(ctx, d, p, 2, nil); err != nil {
		t.Fatal(err)
	}
	if n := count(t, admin); n != 1000 {
		t.Fatalf("loaded %d records, want 1000", n)
	}
	if err := CheckLoaded(ctx, admin, p); err != nil {
		t.Fatal(err)
	}
	if err := CheckLoaded(ctx, admin, p.Merge(Props{"insertorder": "ordered"})); !errors.Is(err, workload.ErrScaleMismatch) {
		t.Errorf("CheckLoaded with insertorder=ordered = %v, want ErrScaleMismatch", err)
	}

	w, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(ctx, runner.Config{Terminals: 2, Duration: 2 * time.Second, MaxRetries: 10}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	cum := res.Cumulative
	var ok, errs int64
	for i, c := range cum.Counts {
		ok += c.OK
		errs += c.Errors()
		if c.Errors() > 0 {
			t.Errorf("%s: %d errors %v", opNames[i], c.Errors(), c.Errs)
		}
	}
	t.Logf("workload %s: %d ops (%.0f/s), extras %v", name, ok, float64(ok)/res.MeasuredSeconds(), cum.Extra)
	if ok == 0 {
		t.Fatal("no operations")
	}
	insertOK := cum.Extra[OpInsert*numRC+rcOK]
	grown := count(t, admin) - 1000
	if insertOK != cum.Counts[OpInsert].OK {
		t.Errorf("INSERT.OK %d != insert ops %d", insertOK, cum.Counts[OpInsert].OK)
	}
	if grown < insertOK || grown > w.Inserted() {
		t.Errorf("table grew by %d; counted %d inserts in the window, %d keynums handed out", grown, insertOK, w.Inserted())
	}
	if (name == "d" || name == "e") && insertOK == 0 {
		t.Errorf("workload %s inserted nothing", name)
	}
	if name == "c" && cum.Extra[OpRead*numRC+rcNotFound] > 0 {
		t.Errorf("workload c: %d reads found nothing", cum.Extra[OpRead*numRC+rcNotFound])
	}
	if err := Cleanup(ctx, admin, p); err != nil {
		t.Error(err)
	}
}

func count(t *testing.T, conn target.Conn) int64 {
	t.Helper()
	rows, err := conn.Query(context.Background(), "SELECT COUNT(*) FROM usertable")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	return n
}
