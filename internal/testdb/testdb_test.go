package testdb

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"benchpress/internal/target"
)

func TestDBName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"target", "bp_t_target"},
		{"tpcc", "bp_t_tpcc"},
		{"My-Pkg.v2", "bp_t_my_pkg_v2"},
		{strings.Repeat("x", 100), "bp_t_" + strings.Repeat("x", 58)},
	}
	for _, tt := range tests {
		if got := DBName(tt.in); got != tt.want {
			t.Errorf("DBName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFuncPackage(t *testing.T) {
	tests := []struct{ fn, want string }{
		{"benchpress/internal/target_test.TestX.func1", "benchpress/internal/target_test"},
		{"benchpress/internal/workload/tpcc.helper", "benchpress/internal/workload/tpcc"},
		{"main.main", "main"},
		{"nodot", ""},
	}
	for _, tt := range tests {
		if got := funcPackage(tt.fn); got != tt.want {
			t.Errorf("funcPackage(%q) = %q, want %q", tt.fn, got, tt.want)
		}
	}
}

// fakeTB records Skip and Fatal instead of stopping the goroutine.
type fakeTB struct {
	testing.TB
	skipped, failed string
}

func (f *fakeTB) Skip(args ...any)                  { f.skipped = fmt.Sprint(args...) }
func (f *fakeTB) Fatalf(format string, args ...any) { f.failed = fmt.Sprintf(format, args...) }
func (f *fakeTB) Logf(format string, args ...any)   {}
func (f *fakeTB) Helper()                           {}

func TestUnreachable(t *testing.T) {
	t.Setenv(EnvMySQL, "mysql://bench:Secr3tPass@127.0.0.1:1/bp_test")
	t.Setenv(EnvRequire, "")
	f := &fakeTB{TB: t}
	if tg := For(f, target.MySQL, "x"); tg != nil || f.failed != "" {
		t.Fatalf("For = %v, failed %q", tg, f.failed)
	}
	want := "MariaDB not reachable at 127.0.0.1:1 (run scripts/db-setup.sh): "
	if !strings.HasPrefix(f.skipped, want) || strings.Contains(f.skipped, "Secr3tPass") {
		t.Fatalf("skip message %q, want prefix %q and no password", f.skipped, want)
	}

	t.Setenv(EnvRequire, "1")
	f = &fakeTB{TB: t}
	For(f, target.MySQL, "x")
	if !strings.Contains(f.failed, want) || f.skipped != "" {
		t.Fatalf("with %s=1: failed %q skipped %q", EnvRequire, f.failed, f.skipped)
	}

	t.Setenv(EnvRequire, "")
	t.Setenv(EnvPG, "postgres://bench@127.0.0.1:1/bp_test")
	f = &fakeTB{TB: t}
	tgs := All(f, "x")
	if len(tgs) != 1 || tgs[0].Kind != target.SQLite || f.failed != "" || f.skipped != "" {
		t.Fatalf("All with both servers down = %v (failed %q skipped %q), want only sqlite", tgs, f.failed, f.skipped)
	}
}

func TestTargets(t *testing.T) {
	want := DBName("testdb" + os.Getenv(EnvSuffix)) // the suffix keeps concurrent checkouts apart
	tgs := Targets(t)
	if len(tgs) == 0 || tgs[0].Kind != target.SQLite {
		t.Fatalf("Targets = %v", tgs)
	}
	for _, tg := range tgs {
		t.Run(string(tg.Kind), func(t *testing.T) {
			if tg.Kind != target.SQLite && tg.Database != want {
				t.Errorf("database %q, want %s (derived from the caller's package)", tg.Database, want)
			}
			if tg.Kind == target.SQLite && !strings.HasSuffix(tg.Endpoints[0], "/"+want+".db") {
				t.Errorf("sqlite path %q", tg.Endpoints[0])
			}
			_, c := Connect(t, tg, target.Options{})
			if _, err := c.Exec(t.Context(), "CREATE TABLE IF NOT EXISTS probe (id INT)"); err != nil {
				t.Fatal(err)
			}
		})
	}
	if len(tgs) != len(Kinds) {
		t.Logf("only %d of %d kinds available", len(tgs), len(Kinds))
	}
}

func TestSuffix(t *testing.T) {
	t.Setenv(EnvSuffix, "_alice")
	for _, tg := range All(t, "sfx") {
		if tg.Kind != target.SQLite && tg.Database != "bp_t_sfx_alice" {
			t.Errorf("%s database %q, want bp_t_sfx_alice", tg.Kind, tg.Database)
		}
	}
}
