package results

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadPlanLenient: a saved plan renders whatever today's plan rules
// say: unknown keys, options no workload declares any more, test names
// since removed, defaults and both comparison shapes are read as written.
func TestReadPlanLenient(t *testing.T) {
	path := filepath.Join(t.TempDir(), PlanFile)
	os.WriteFile(path, []byte(`name: old
description: from an older benchpress
format: 7
targets:
  a: "mysql://bench:secret@h1:3306/db"
  b: {url: "tidb://root@h2:4000/db", password_env: PW}
defaults: {workload: sysbench/bulk_insert, terminalz: 8}
cases:
  - {id: S, target: a, table_size: "1000", retired_option: x}
  - {id: T, target: b, workload: tpcc}
compare:
  - [S, T]
  - {name: named, base: T, other: S}
  - 42
`), 0o644)
	p, err := ReadPlan(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "old" || p.Targets["a"] != "mysql://bench@h1:3306/db" || p.Targets["b"] != "tidb://root@h2:4000/db" {
		t.Fatalf("plan %+v", p)
	}
	if len(p.Cases) != 2 || p.Cases[0].Workload != "sysbench/bulk_insert" || p.Cases[1].Workload != "tpcc" || p.Cases[1].Target != "b" {
		t.Fatalf("cases %+v", p.Cases)
	}
	if len(p.Compare) != 2 || p.Compare[0].Name != "S vs T" || p.Compare[1].Name != "named" || p.Compare[1].Base != "T" {
		t.Fatalf("compare %+v", p.Compare)
	}
	if _, err := ReadPlan(filepath.Join(t.TempDir(), "none.yaml")); err == nil {
		t.Fatal("a missing plan must fail")
	}
}
