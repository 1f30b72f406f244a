package target_test

import (
	"errors"
	"strings"
	"testing"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// TestEnsureDatabase: a database that does not exist is created on MariaDB
// and PostgreSQL (text and prepared options alike) and reported once; an
// existing one is left alone; SQLite needs nothing; on ShardingSphere-Proxy
// nothing is created and the error says why.
func TestEnsureDatabase(t *testing.T) {
	for _, tg := range testdb.Targets(t) {
		for _, mode := range []target.StatementMode{target.Prepared, target.Text} {
			t.Run(string(tg.Kind)+"/"+string(mode), func(t *testing.T) {
				ctx := ctxT(t)
				opts := target.Options{StatementMode: mode}
				missing := *tg
				if tg.Kind != target.SQLite {
					missing.Database = tg.Database + "_created"
					_, admin := testdb.Connect(t, tg, target.Options{StatementMode: target.Text})
					drop := "DROP DATABASE IF EXISTS " + tg.Kind.QuoteIdent(missing.Database)
					if tg.Kind == target.Postgres {
						drop += " WITH (FORCE)"
					}
					mustExec(t, admin, drop)
					t.Cleanup(func() { mustExec(t, admin, drop) })
				}
				c, err := target.NewConnector(&missing, opts)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				if tg.Kind != target.SQLite {
					_, err := c.Connect(ctx)
					var ce *target.ConnectError
					if !errors.As(err, &ce) || ce.Kind != target.ConnectNoDatabase {
						t.Fatalf("before: connect error %v, want kind no_database", err)
					}
				}
				created, err := c.EnsureDatabase(ctx)
				if err != nil {
					t.Fatalf("EnsureDatabase: %v", err)
				}
				want := 1
				if tg.Kind == target.SQLite {
					want = 0
				}
				if len(created) != want || want == 1 && created[0] != tg.Endpoints[0] {
					t.Fatalf("created %v, want %d on %s", created, want, tg.Endpoints[0])
				}
				s, err := c.Connect(ctx)
				if err != nil {
					t.Fatalf("after: %v", err)
				}
				mustExec(t, s, "CREATE TABLE IF NOT EXISTS created_here (id INT PRIMARY KEY)")
				s.Close()
				if again, err := c.EnsureDatabase(ctx); err != nil || len(again) != 0 {
					t.Fatalf("again: created %v, err %v; want nothing", again, err)
				}
			})
		}
	}
}

// TestEnsureDatabaseProxy: ShardingSphere-Proxy's logical databases are its
// configuration; a missing one is not created and the error says so.
func TestEnsureDatabaseProxy(t *testing.T) {
	px := *testdb.ProxyDB(t, testdb.ProxyWire)
	px.Database = "bp_t_no_such_logical_db"
	c, err := target.NewConnector(&px, target.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := ctxT(t)
	created, err := c.EnsureDatabase(ctx)
	var ce *target.ConnectError
	if len(created) != 0 || !errors.As(err, &ce) || ce.Kind != target.ConnectNoDatabase ||
		!strings.Contains(err.Error(), "not created: ShardingSphere-Proxy") {
		t.Fatalf("created %v, err %v; want nothing and the proxy named", created, err)
	}
	if _, err := c.Connect(ctx); err == nil {
		t.Fatal("the logical database exists after EnsureDatabase")
	}
}
