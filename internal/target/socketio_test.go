package target_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"benchpress/internal/target"
	"benchpress/internal/target/sockio"
	"benchpress/internal/testdb"
)

// TestBlockingSockets runs sessions with blocking sockets (what a run of
// up to target.BlockingMax terminals gets) on every server, both
// MySQL clients and both statement modes: statements, a statement
// interrupted by its context (the guard's deadline, pgx's cancellation),
// a killed session classified as lost, and the pool's poller-mode session
// replaced when the mode changes.
func TestBlockingSockets(t *testing.T) {
	if !sockio.Supported {
		t.Skip("blocking sockets are Linux-only")
	}
	sleep := map[target.Kind]string{target.MySQL: "SELECT SLEEP(5)", target.Postgres: "SELECT pg_sleep(5)"}
	kill := map[target.Kind][2]string{
		target.MySQL:    {"SELECT CONNECTION_ID()", "KILL %d"},
		target.Postgres: {"SELECT pg_backend_pid()", "SELECT pg_terminate_backend(%d)"},
	}
	for _, tg := range testdb.Targets(t) {
		if tg.Kind == target.SQLite {
			continue
		}
		clients := []target.MySQLClient{target.MySQLClientWire}
		if tg.Kind == target.MySQL {
			clients = append(clients, target.MySQLClientDriver)
		}
		for _, client := range clients {
			for _, mode := range modes {
				t.Run(fmt.Sprintf("%s/%s/client%d", tg.Kind, mode, client), func(t *testing.T) {
					opts := target.Options{StatementMode: mode, MySQLClient: client, SocketIO: target.SocketBlocking}
					conn, err := target.NewConnector(tg, opts)
					if err != nil {
						t.Fatal(err)
					}
					defer conn.Close()
					// a pooled session from before the switch must not serve
					warm, err := conn.Connect(ctxT(t))
					if err != nil {
						t.Fatal(err)
					}
					warm.Close()
					if !conn.WantsBlocking(8) {
						t.Fatal("WantsBlocking(8) with SocketBlocking: false")
					}
					conn.SetBlockingSockets(true)
					before := conn.BlockingSessions()
					c, err := conn.Connect(ctxT(t))
					if err != nil {
						t.Fatal(err)
					}
					defer c.Close()
					if conn.BlockingSessions() == before {
						t.Fatal("the session after SetBlockingSockets did not get a blocking socket")
					}
					sel := mustPrepare(t, c, "SELECT 1 + ?")
					for i := range 200 {
						var n int64
						if err := sel.QueryRow(ctxT(t), []any{&n}, i); err != nil || n != int64(i+1) {
							t.Fatalf("query %d: %d, %v", i, n, err)
						}
					}

					// cancellation interrupts a statement in flight
					ctx, cancel := context.WithCancel(context.Background())
					time.AfterFunc(200*time.Millisecond, cancel)
					start := time.Now()
					rows, err := c.Query(ctx, sleep[tg.Kind])
					if err == nil {
						for rows.Next() {
						}
						err = rows.Err()
						rows.Close()
					}
					if took := time.Since(start); err == nil || took > 2*time.Second {
						t.Fatalf("cancelled sleep: %v after %v; want an error within 2s", err, took)
					}

					// a killed session is a lost connection
					victim, err := conn.Connect(ctxT(t))
					if err != nil {
						t.Fatal(err)
					}
					defer victim.Close()
					killer, err := conn.Connect(ctxT(t))
					if err != nil {
						t.Fatal(err)
					}
					defer killer.Close()
					id := mustPrepare(t, victim, kill[tg.Kind][0])
					var pid int64
					if err := id.QueryRow(ctxT(t), []any{&pid}); err != nil {
						t.Fatal(err)
					}
					if _, err := killer.Exec(ctxT(t), fmt.Sprintf(kill[tg.Kind][1], pid)); err != nil && tg.Kind == target.MySQL {
						t.Fatal(err)
					}
					time.Sleep(100 * time.Millisecond)
					err = id.QueryRow(ctxT(t), []any{&pid})
					if got := target.Classify(err); got != target.ClassLostConnection {
						t.Fatalf("after kill: class %v (%v), want lost_connection", got, err)
					}
				})
			}
		}
	}
}

func TestWantsBlocking(t *testing.T) {
	tests := []struct {
		kind      target.Kind
		io        target.SocketIO
		terminals int
		want      bool
	}{
		{target.MySQL, target.SocketAuto, 1, true},
		{target.MySQL, target.SocketAuto, 32, true},
		{target.MySQL, target.SocketAuto, target.BlockingMax, true},
		{target.MySQL, target.SocketAuto, target.BlockingMax + 1, false},
		{target.Postgres, target.SocketAuto, 1, true},
		{target.Postgres, target.SocketAuto, 32, true}, // the poller above 8 per CPU until 2026-11-29
		{target.Postgres, target.SocketAuto, target.BlockingMax, true},
		{target.Postgres, target.SocketAuto, target.BlockingMax + 1, false},
		{target.MySQL, target.SocketPoller, 2, false},
		{target.Postgres, target.SocketBlocking, 4096, true},
		{target.SQLite, target.SocketBlocking, 2, false},
		{target.SQLite, target.SocketAuto, 2, false},
	}
	for _, tc := range tests {
		tg := &target.Target{Kind: tc.kind, User: "u", Endpoints: []string{"127.0.0.1:1"}, Database: "d"}
		if tc.kind == target.SQLite {
			tg = &target.Target{Kind: target.SQLite, Endpoints: []string{filepath.Join(t.TempDir(), "x.db")}}
		}
		c, err := target.NewConnector(tg, target.Options{SocketIO: tc.io})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.WantsBlocking(tc.terminals); got != (tc.want && sockio.Supported) {
			t.Errorf("%s, %v with %d terminals: blocking %v, want %v", tc.kind, tc.io, tc.terminals, got, tc.want)
		}
		c.Close()
	}
}

// TestSharedYield: only PostgreSQL terminals that outnumber the CPUs yield
// between transactions; MySQL keeps the runtime's preemption.
func TestSharedYield(t *testing.T) {
	for _, tc := range []struct {
		kind      target.Kind
		terminals int
		cpus      int
		want      bool
	}{
		{target.Postgres, 8, 2, true},
		{target.Postgres, 2, 2, false},
		{target.Postgres, 1, 2, false},
		{target.MySQL, 8, 2, false},
		{target.SQLite, 8, 2, false},
	} {
		if got := target.SharedYield(tc.kind, tc.terminals, tc.cpus); got != tc.want {
			t.Errorf("SharedYield(%s, %d, %d) = %v, want %v", tc.kind, tc.terminals, tc.cpus, got, tc.want)
		}
	}
}
