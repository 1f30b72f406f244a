package tpcc

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"benchpress/internal/load"
)

func TestExportCSV(t *testing.T) {
	dir := t.TempDir()
	n, _ := NamesFor("standard")
	st, err := ExportCSV(context.Background(), ExportConfig{Warehouses: 1, Threads: 2, Seed: 3, Names: n,
		Dialect: load.CSVMySQL, Dir: dir, Now: pinnedNow})
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 5+8 || st.Rows < 598329-5000 {
		t.Errorf("stats %+v", st)
	}
	lines := func(name string) int {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Count(b, []byte("\n"))
	}
	for name, want := range map[string]int{"item.1-20000.csv": 20000, "warehouse.1-1.csv": 1,
		"stock.1-1.csv": NumItems, "customer.1-1.csv": 30000, "new_order.1-1.csv": 9000} {
		if got := lines(name); got != want {
			t.Errorf("%s: %d lines, want %d", name, got, want)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "orders.1-1.csv"))
	if !bytes.Contains(b, []byte(`,\N,`)) {
		t.Error("orders: undelivered o_carrier_id not written as \\N")
	}
}
