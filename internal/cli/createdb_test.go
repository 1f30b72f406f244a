package cli

import (
	"context"
	"strings"
	"testing"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// TestPrepareCreatesDatabase: tpcc prepare, sysbench prepare and ycsb load
// create the URL's database when it does not exist and say so; a second
// load finds it and says nothing about it.
func TestPrepareCreatesDatabase(t *testing.T) {
	cmds := []struct {
		name string
		args []string
	}{
		{"tpcc", []string{"tpcc", "prepare", "--warehouses", "1", "--threads", "2"}},
		{"sysbench", []string{"sysbench", "prepare", "--tables", "1", "--table-size", "10"}},
		{"ycsb", []string{"ycsb", "load", "a", "--records", "10", "--threads", "1", "--drop"}},
	}
	for _, kind := range []target.Kind{target.MySQL, target.Postgres} {
		tg := testdb.For(t, kind, "cli_createdb")
		_, admin := testdb.Connect(t, tg, target.Options{StatementMode: target.Text})
		for _, c := range cmds {
			t.Run(string(kind)+"/"+c.name, func(t *testing.T) {
				fresh := *tg
				fresh.Database = tg.Database + "_" + c.name
				drop := "DROP DATABASE IF EXISTS " + tg.Kind.QuoteIdent(fresh.Database)
				if kind == target.Postgres {
					drop += " WITH (FORCE)"
				}
				if _, err := admin.Exec(context.Background(), drop); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { admin.Exec(context.Background(), drop) })
				args := append(append([]string{}, c.args...), "--target", testdb.URL(&fresh))
				_, errOut, err := runRoot(t, args...)
				if err != nil {
					t.Fatalf("%v\n%s", err, errOut)
				}
				want := `created database "` + fresh.Database + `" on ` + fresh.Endpoints[0]
				if !strings.Contains(errOut, want) {
					t.Fatalf("stderr does not say %q:\n%s", want, errOut)
				}
				if c.name == "ycsb" { // the one whose second load may --drop what the first made
					if _, errOut, err = runRoot(t, args...); err != nil || strings.Contains(errOut, "created database") {
						t.Fatalf("second %s: err %v, stderr:\n%s", c.name, err, errOut)
					}
				}
			})
		}
	}
}
