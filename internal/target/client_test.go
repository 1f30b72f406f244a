package target_test

import (
	"maps"
	"testing"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// TestClientCounts: the Connector records which client library ran each
// session: on MySQL the protocol client in prepared mode and go-sql-driver
// in text mode; pgx and modernc sqlite elsewhere.
func TestClientCounts(t *testing.T) {
	want := map[target.Kind]map[target.StatementMode]string{
		target.MySQL:    {target.Prepared: target.ClientMyWire, target.Text: target.ClientMySQLDrv},
		target.Postgres: {target.Prepared: target.ClientPgx, target.Text: target.ClientPgx},
		target.SQLite:   {target.Prepared: target.ClientSQLite, target.Text: target.ClientSQLite},
	}
	for _, tg := range testdb.Targets(t) {
		for _, mode := range []target.StatementMode{target.Prepared, target.Text} {
			t.Run(string(tg.Kind)+"/"+string(mode), func(t *testing.T) {
				cn, _ := testdb.Connect(t, tg, target.Options{StatementMode: mode})
				got := cn.ClientCounts()
				if w := map[string]int64{want[tg.Kind][mode]: 1}; !maps.Equal(got, w) {
					t.Fatalf("ClientCounts = %v, want %v", got, w)
				}
			})
		}
	}
}
