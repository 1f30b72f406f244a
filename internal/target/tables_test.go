package target_test

import (
	"context"
	"testing"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// TestTableExists probes by logical name on every database: a table that
// exists, one that does not (false, no error), and the map of
// ExistingTables (lower-cased, missing names left out).
func TestTableExists(t *testing.T) {
	ctx := context.Background()
	for _, tg := range testdb.Targets(t) {
		t.Run(string(tg.Kind), func(t *testing.T) {
			_, conn := testdb.Connect(t, tg, target.Options{})
			for _, q := range []string{"DROP TABLE IF EXISTS bp_probe_t", "CREATE TABLE bp_probe_t (a int)"} {
				if _, err := conn.Exec(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
			t.Cleanup(func() { _, _ = conn.Exec(context.Background(), "DROP TABLE IF EXISTS bp_probe_t") })
			if ok, err := target.TableExists(ctx, conn, "bp_probe_t"); !ok || err != nil {
				t.Errorf("existing table: %v, %v", ok, err)
			}
			if ok, err := target.TableExists(ctx, conn, "bp_probe_missing"); ok || err != nil {
				t.Errorf("missing table: %v, %v", ok, err)
			}
			have, err := target.ExistingTables(ctx, conn, []string{"bp_probe_missing", "bp_probe_t", "bp_probe_t"})
			if err != nil || len(have) != 1 || !have["bp_probe_t"] {
				t.Errorf("ExistingTables = %v, %v", have, err)
			}
			// The session stays usable after a probe of a missing table.
			if _, err := conn.Exec(ctx, "INSERT INTO bp_probe_t (a) VALUES (1)"); err != nil {
				t.Errorf("after the probes: %v", err)
			}
		})
	}
}

func TestProxyName(t *testing.T) {
	for v, want := range map[string]string{
		"5.5.5-10.11.19-MariaDB-0+deb12u1-ShardingSphere-Proxy 5.1.0": "ShardingSphere-Proxy",
		"5.7.25-HotDB-2.5.6":          "HotDB",
		"8.0.11-TiDB-v7.5.0":          "",
		"10.11.19-MariaDB-0+deb12u1":  "",
		"5.7.9-vitess-17.0.0":         "Vitess",
		"16.2 (Debian 16.2-1.pgdg12)": "",
	} {
		if got := target.ProxyName(v); got != want {
			t.Errorf("ProxyName(%q) = %q, want %q", v, got, want)
		}
	}
}
