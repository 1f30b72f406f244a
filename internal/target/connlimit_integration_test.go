package target_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// TestReadConnLimit: on MariaDB and PostgreSQL the limit read is the
// server's max_connections (less the superuser slots for a PostgreSQL user
// that is not one), with the reading session among those in use; on
// SQLite and through ShardingSphere-Proxy there is none to read.
func TestReadConnLimit(t *testing.T) {
	for _, tg := range testdb.Targets(t) {
		t.Run(string(tg.Kind), func(t *testing.T) {
			ctx := ctxT(t)
			_, conn := testdb.Connect(t, tg, target.Options{StatementMode: target.Text})
			l, ok := target.ReadConnLimit(ctx, conn)
			if tg.Kind == target.SQLite {
				if ok {
					t.Fatalf("sqlite: limit %+v", l)
				}
				return
			}
			show := map[target.Kind]string{target.MySQL: "SELECT @@max_connections", target.Postgres: "SHOW max_connections"}[tg.Kind]
			want := queryInt(t, conn, show)
			if !ok || l.Server != want || l.ServerInUse < 1 || l.ServerDesc != fmt.Sprintf("max_connections %d", want) {
				t.Fatalf("limit %+v ok %v, want Server %d and the reading session in use", l, ok, want)
			}
			if tg.Kind != target.Postgres {
				return
			}
			// A role that is not a superuser gets max_connections less the
			// reserved slots, and its CONNECTION LIMIT with its sessions.
			role := "bp_connlim" + strings.ToLower(strings.NewReplacer("-", "_", ".", "_").Replace(os.Getenv(testdb.EnvSuffix)))
			mustExec(t, conn, fmt.Sprintf("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '%s') THEN CREATE ROLE %s LOGIN PASSWORD 'c'; END IF; END $$", role, role))
			mustExec(t, conn, fmt.Sprintf("ALTER ROLE %s NOSUPERUSER CONNECTION LIMIT 7", role))
			mustExec(t, conn, fmt.Sprintf("GRANT CONNECT ON DATABASE %s TO %s", tg.Database, role))
			reserved := queryInt(t, conn, "SHOW superuser_reserved_connections")
			plain := *tg
			plain.User, plain.Password = role, "c"
			_, rc := testdb.Connect(t, &plain, target.Options{StatementMode: target.Text})
			l, ok = target.ReadConnLimit(ctx, rc)
			if !ok || l.Server != want-reserved || l.User != 7 || l.UserInUse != 1 ||
				l.ServerDesc != fmt.Sprintf("max_connections %d less %d reserved for superusers", want, reserved) {
				t.Fatalf("role %s: limit %+v ok %v, want Server %d, User 7 with 1 session", role, l, ok, want-reserved)
			}
			// The superuser's session (conn) is in use too, though the
			// plain role may not see its backend_type.
			if l.ServerInUse < 2 {
				t.Errorf("role %s counts %d sessions in use on the server; want its own and the superuser's", role, l.ServerInUse)
			}
		})
	}
	t.Run("proxy", func(t *testing.T) {
		_, conn := testdb.Connect(t, testdb.ProxyDB(t, testdb.ProxyWire), target.Options{StatementMode: target.Text})
		if l, ok := target.ReadConnLimit(ctxT(t), conn); ok {
			t.Fatalf("through the proxy: limit %+v (the backend's, not the proxy's)", l)
		}
	})
}

func queryInt(t *testing.T, c target.Conn, sql string) int64 {
	t.Helper()
	var s string
	if err := target.QueryRow(ctxT(t), c, sql, []any{&s}); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}
