package target_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

var modes = []target.StatementMode{target.Prepared, target.Text}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func mustExec(t *testing.T, c target.Conn, sql string, args ...any) int64 {
	t.Helper()
	n, err := c.Exec(ctxT(t), sql, args...)
	if err != nil {
		t.Fatalf("exec %q: %v", sql, err)
	}
	return n
}

func mustPrepare(t *testing.T, c target.Conn, sql string) target.Stmt {
	t.Helper()
	st, err := c.Prepare(ctxT(t), sql)
	if err != nil {
		t.Fatalf("prepare %q: %v", sql, err)
	}
	return st
}

// forEach runs f per available target and statement mode.
func forEach(t *testing.T, f func(t *testing.T, tg *target.Target, mode target.StatementMode)) {
	for _, tg := range testdb.Targets(t) {
		for _, mode := range modes {
			t.Run(string(tg.Kind)+"/"+string(mode), func(t *testing.T) { f(t, tg, mode) })
		}
	}
}

func TestRoundTrip(t *testing.T) {
	forEach(t, func(t *testing.T, tg *target.Target, mode target.StatementMode) {
		ctx := ctxT(t)
		_, c := testdb.Connect(t, tg, target.Options{StatementMode: mode})
		if c.Kind() != tg.Kind || c.Endpoint() != tg.Endpoints[0] || c.ServerVersion() == "" || c.Raw() == nil {
			t.Fatalf("session identity: kind %s endpoint %q version %q", c.Kind(), c.Endpoint(), c.ServerVersion())
		}
		table := "rt_" + string(mode)
		mustExec(t, c, "DROP TABLE IF EXISTS "+table)
		mustExec(t, c, "CREATE TABLE "+table+" (id INT PRIMARY KEY, name VARCHAR(20), amount DECIMAL(12,2), rate DECIMAL(4,4), qty INT)")

		ins := mustPrepare(t, c, "INSERT INTO "+table+" (id, name, amount, rate, qty) VALUES (?, ?, ?, ?, ?)")
		if again := mustPrepare(t, c, "INSERT INTO "+table+" (id, name, amount, rate, qty) VALUES (?, ?, ?, ?, ?)"); again != ins {
			t.Errorf("Prepare of the same SQL is not cached")
		}
		amounts := []target.Cents{1234, -1000, 5, 999999999, 10}
		var sum target.Cents
		for i, a := range amounts {
			n, err := ins.Exec(ctx, i+1, fmt.Sprintf("n'%d?", i), a, target.Decimal4(1234*(i+1)%10000), i)
			if err != nil || n != 1 {
				t.Fatalf("insert %d: n=%d err=%v", i, n, err)
			}
			sum += a
		}

		sel := mustPrepare(t, c, "SELECT name, amount, rate FROM "+table+" WHERE id = ?")
		var name string
		var amt target.Cents
		var rate target.Decimal4
		for i, a := range amounts {
			if err := sel.QueryRow(ctx, []any{&name, &amt, &rate}, i+1); err != nil {
				t.Fatalf("select %d: %v", i+1, err)
			}
			if name != fmt.Sprintf("n'%d?", i) || amt != a || rate != target.Decimal4(1234*(i+1)%10000) {
				t.Errorf("row %d = %q %v %v, want amount %v", i+1, name, amt, rate, a)
			}
		}
		if err := sel.QueryRow(ctx, []any{&name, &amt, &rate}, 999); !errors.Is(err, target.ErrNoRows) {
			t.Errorf("missing row: err = %v, want ErrNoRows", err)
		}

		// SUM over DECIMAL and over INT both scan into Cents.
		var total, qtySum target.Cents
		sumStmt := mustPrepare(t, c, "SELECT SUM(amount), SUM(qty) FROM "+table+" WHERE id <= ?")
		if err := sumStmt.QueryRow(ctx, []any{&total, &qtySum}, 100); err != nil {
			t.Fatalf("sum: %v", err)
		}
		if total != sum || qtySum != 1000 {
			t.Errorf("SUM = %v, %v; want %v, 10.00", total, qtySum, sum)
		}
		// A Cents parameter compared against a DECIMAL column.
		var cnt int64
		cmp := mustPrepare(t, c, "SELECT COUNT(*) FROM "+table+" WHERE amount = ?")
		if err := cmp.QueryRow(ctx, []any{&cnt}, target.Cents(-1000)); err != nil || cnt != 1 {
			t.Errorf("count amount = -10.00: %d, %v", cnt, err)
		}

		// Multi-row Query, twice (the PostgreSQL Rows wrapper is reused).
		q := mustPrepare(t, c, "SELECT id, amount FROM "+table+" ORDER BY id")
		for pass := 0; pass < 2; pass++ {
			rows, err := q.Query(ctx)
			if err != nil {
				t.Fatalf("query: %v", err)
			}
			var ids []int64
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id, &amt); err != nil {
					t.Fatalf("scan: %v", err)
				}
				ids = append(ids, id)
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if err := rows.Close(); err != nil {
				t.Fatal(err)
			}
			if len(ids) != len(amounts) || amt != amounts[len(amounts)-1] {
				t.Fatalf("pass %d: ids %v last amount %v", pass, ids, amt)
			}
		}

		// Transactions.
		count := func() int64 {
			t.Helper()
			rows, err := c.Query(ctx, "SELECT COUNT(*) FROM "+table)
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
		if err := c.Rollback(ctx); err != nil {
			t.Fatalf("rollback without transaction: %v", err)
		}
		for _, commit := range []bool{false, true} {
			if err := c.Begin(ctx, true); err != nil {
				t.Fatal(err)
			}
			if _, err := ins.Exec(ctx, 100, "tx", target.Cents(1), target.Decimal4(1), 0); err != nil {
				t.Fatal(err)
			}
			if commit {
				err := c.Commit(ctx)
				if err != nil {
					t.Fatal(err)
				}
			} else if err := c.Rollback(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if got := count(); got != int64(len(amounts))+1 {
			t.Errorf("after rollback+commit: %d rows, want %d", got, len(amounts)+1)
		}
		// Read transaction.
		if err := c.Begin(ctx, false); err != nil {
			t.Fatal(err)
		}
		count()
		if err := c.Commit(ctx); err != nil {
			t.Fatal(err)
		}

		n := mustExec(t, c, "UPDATE "+table+" SET qty = qty + ? WHERE id > ?", 1, 2)
		if n != int64(len(amounts)-2+1) {
			t.Errorf("update affected %d", n)
		}
	})
}

func TestCentsLiteralParams(t *testing.T) {
	forEach(t, func(t *testing.T, tg *target.Target, mode target.StatementMode) {
		_, c := testdb.Connect(t, tg, target.Options{StatementMode: mode})
		st := mustPrepare(t, c, "SELECT CAST(? AS DECIMAL(12,2)), CAST(? AS DECIMAL(12,2)) + CAST(? AS DECIMAL(12,2))")
		var a, b target.Cents
		if err := st.QueryRow(ctxT(t), []any{&a, &b}, target.Cents(-1005), target.Cents(1), target.Cents(2)); err != nil {
			t.Fatal(err)
		}
		if a != -1005 || b != 3 {
			t.Errorf("got %v %v, want -10.05 0.03", a, b)
		}
	})
}

func TestIsolationOption(t *testing.T) {
	queries := map[target.Kind]string{
		target.MySQL:    "SELECT @@tx_isolation",
		target.Postgres: "SHOW transaction_isolation",
	}
	for _, tg := range testdb.Targets(t) {
		q, ok := queries[tg.Kind]
		if !ok {
			continue
		}
		t.Run(string(tg.Kind), func(t *testing.T) {
			_, c := testdb.Connect(t, tg, target.Options{Isolation: "serializable"})
			rows, err := c.Query(ctxT(t), q)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var got string
			for rows.Next() {
				if err := rows.Scan(&got); err != nil {
					t.Fatal(err)
				}
			}
			if !strings.EqualFold(strings.ReplaceAll(got, "-", " "), "serializable") {
				t.Errorf("isolation = %q, want serializable", got)
			}
		})
	}
}

func TestOptionErrors(t *testing.T) {
	tg := &target.Target{Kind: target.SQLite, Endpoints: []string{t.TempDir() + "/x.db"}}
	for _, o := range []target.Options{{Isolation: "snapshot"}, {StatementMode: "binary"}} {
		if _, err := target.NewConnector(tg, o); err == nil {
			t.Errorf("NewConnector(%+v): want error", o)
		}
	}
}

func TestConstraintError(t *testing.T) {
	forEach(t, func(t *testing.T, tg *target.Target, mode target.StatementMode) {
		_, c := testdb.Connect(t, tg, target.Options{StatementMode: mode})
		mustExec(t, c, "DROP TABLE IF EXISTS dup")
		mustExec(t, c, "CREATE TABLE dup (id INT PRIMARY KEY)")
		st := mustPrepare(t, c, "INSERT INTO dup VALUES (?)")
		if _, err := st.Exec(ctxT(t), 1); err != nil {
			t.Fatal(err)
		}
		_, err := st.Exec(ctxT(t), 1)
		if got := target.Classify(err); got != target.ClassConstraint {
			t.Fatalf("duplicate key: class %v (%v), want constraint", got, err)
		}
	})
}

func TestDeadlock(t *testing.T) {
	for _, tg := range testdb.Targets(t) {
		if tg.Kind == target.SQLite {
			continue
		}
		t.Run(string(tg.Kind), func(t *testing.T) {
			ctx := ctxT(t)
			conn, c1 := testdb.Connect(t, tg, target.Options{})
			c2, err := conn.Connect(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer c2.Close()
			mustExec(t, c1, "DROP TABLE IF EXISTS dl")
			mustExec(t, c1, "CREATE TABLE dl (id INT PRIMARY KEY, v INT)")
			mustExec(t, c1, "INSERT INTO dl VALUES (1, 0), (2, 0)")
			upd := "UPDATE dl SET v = v + 1 WHERE id = ?"
			for _, s := range []struct {
				c  target.Conn
				id int
			}{{c1, 1}, {c2, 2}} {
				if err := s.c.Begin(ctx, true); err != nil {
					t.Fatal(err)
				}
				if _, err := s.c.Exec(ctx, upd, s.id); err != nil {
					t.Fatal(err)
				}
			}
			errs := make([]error, 2)
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { // c1 blocks on row 2 ...
				defer wg.Done()
				_, errs[0] = c1.Exec(ctx, upd, 2)
				if errs[0] != nil {
					c1.Rollback(ctx)
				} else {
					c1.Commit(ctx)
				}
			}()
			time.Sleep(300 * time.Millisecond)
			_, errs[1] = c2.Exec(ctx, upd, 1) // ... and c2 closes the cycle.
			if errs[1] != nil {
				c2.Rollback(ctx)
			} else {
				c2.Commit(ctx)
			}
			wg.Wait()
			n := 0
			for _, err := range errs {
				if err == nil {
					continue
				}
				n++
				if got := target.Classify(err); got != target.ClassDeadlock || !got.Retryable() {
					t.Errorf("class %v (%v), want retryable deadlock", got, err)
				}
			}
			if n != 1 {
				t.Errorf("%d sessions failed (%v), want exactly 1", n, errs)
			}
		})
	}
}

func TestSQLiteBusy(t *testing.T) {
	tg := testdb.For(t, target.SQLite, "target")
	tg.Params = map[string]string{"_pragma": "busy_timeout(0)"} // fail at once instead of waiting 30s
	_, c1 := testdb.Connect(t, tg, target.Options{})
	ctx := ctxT(t)
	// A second Connector, as another process would be: the sessions of
	// one Connector queue for the write lock among themselves
	// (TestSQLiteWritersQueue) and never see SQLITE_BUSY from each other.
	_, c2 := testdb.Connect(t, tg, target.Options{})
	mustExec(t, c1, "CREATE TABLE IF NOT EXISTS b (id INTEGER PRIMARY KEY)")
	if err := c1.Begin(ctx, true); err != nil {
		t.Fatal(err)
	}
	err := c2.Begin(ctx, true)
	if got := target.Classify(err); got != target.ClassSerialization || !got.Retryable() {
		t.Fatalf("second writer: class %v (%v), want retryable serialization", got, err)
	}
	c2.Rollback(ctx) // no-op: the BEGIN failed
	if err := c1.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c2.Begin(ctx, true); err != nil {
		t.Fatalf("after the first writer committed: %v", err)
	}
	if err := c2.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestLostConnection(t *testing.T) {
	ids := map[target.Kind][2]string{
		target.MySQL:    {"SELECT CONNECTION_ID()", "KILL %d"},
		target.Postgres: {"SELECT pg_backend_pid()", "SELECT pg_terminate_backend(%d)"},
	}
	for _, tg := range testdb.Targets(t) {
		q, ok := ids[tg.Kind]
		if !ok {
			continue
		}
		for _, mode := range modes {
			t.Run(string(tg.Kind)+"/"+string(mode), func(t *testing.T) {
				ctx := ctxT(t)
				conn, victim := testdb.Connect(t, tg, target.Options{StatementMode: mode})
				killer, err := conn.Connect(ctx)
				if err != nil {
					t.Fatal(err)
				}
				defer killer.Close()
				sel := mustPrepare(t, victim, q[0])
				var id int64
				if err := sel.QueryRow(ctx, []any{&id}); err != nil {
					t.Fatal(err)
				}
				rows, err := killer.Query(ctx, fmt.Sprintf(q[1], id))
				if err != nil {
					t.Fatal(err)
				}
				rows.Close()
				time.Sleep(100 * time.Millisecond)
				err = sel.QueryRow(ctx, []any{&id})
				if got := target.Classify(err); got != target.ClassLostConnection {
					t.Fatalf("after kill: class %v (%v), want lost_connection", got, err)
				}
				// The Connector still hands out working sessions.
				fresh, err := conn.Connect(ctx)
				if err != nil {
					t.Fatal(err)
				}
				defer fresh.Close()
				if _, err := fresh.Exec(ctx, "SELECT 1"); err != nil {
					t.Fatalf("fresh session: %v", err)
				}
			})
		}
	}
}

func TestConnectErrors(t *testing.T) {
	const secret = "Wr0ngSecretPw"
	servers := map[target.Kind]string{}
	for _, tg := range testdb.Targets(t) {
		servers[tg.Kind] = tg.Endpoints[0]
	}
	for _, tg := range testdb.Targets(t) {
		if tg.Kind == target.SQLite {
			continue
		}
		port := "3306"
		other := servers[target.Postgres]
		if tg.Kind == target.Postgres {
			port = "5432"
			other = servers[target.MySQL]
		}
		tests := []struct {
			name string
			edit func(t *target.Target)
			want target.ConnectErrorKind
			hint string // in the message
		}{
			// a MySQL client waits for a greeting a PostgreSQL server never
			// sends; a PostgreSQL client gets a MySQL greeting
			{"the other server's port", func(t *target.Target) { t.Endpoints = []string{other} },
				map[target.Kind]target.ConnectErrorKind{target.MySQL: target.ConnectUnreachable, target.Postgres: target.ConnectWrongProtocol}[tg.Kind],
				map[target.Kind]string{target.MySQL: "a wrong port or scheme does this too", target.Postgres: "does not speak the PostgreSQL protocol"}[tg.Kind]},
			{"wrong password", func(t *target.Target) { t.Password = secret }, target.ConnectAuth, ""},
			{"unknown user", func(t *target.Target) { t.User, t.Password = "nobody_here", secret }, target.ConnectAuth, ""},
			{"missing database", func(t *target.Target) { t.Database = "bp_no_such_db" }, target.ConnectNoDatabase, ""},
			{"closed port", func(t *target.Target) { t.Endpoints = []string{"127.0.0.1:1"} }, target.ConnectUnreachable, ""},
			{"unknown host", func(t *target.Target) { t.Endpoints = []string{"no-such-host.invalid:" + port} }, target.ConnectUnreachable, ""},
		}
		for _, tt := range tests {
			t.Run(string(tg.Kind)+"/"+tt.name, func(t *testing.T) {
				bad := *tg
				tt.edit(&bad)
				if bad.Endpoints[0] == "" {
					t.Skip("the other server is not available")
				}
				c, err := target.NewConnector(&bad, target.Options{ConnectTimeout: 2 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				_, err = c.Connect(ctxT(t))
				var ce *target.ConnectError
				if !errors.As(err, &ce) {
					t.Fatalf("want *ConnectError, got %T %v", err, err)
				}
				if ce.Kind != tt.want {
					t.Errorf("kind %v, want %v (%v)", ce.Kind, tt.want, err)
				}
				if ce.Endpoint != bad.Endpoints[0] || !strings.Contains(err.Error(), bad.Endpoints[0]) {
					t.Errorf("error does not name endpoint %s: %v", bad.Endpoints[0], err)
				}
				if !strings.Contains(err.Error(), tt.hint) {
					t.Errorf("error does not say %q: %v", tt.hint, err)
				}
				if strings.Contains(err.Error(), "%!") {
					t.Errorf("error has a formatting artefact: %v", err)
				}
				if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "\n") {
					t.Errorf("error leaks the password or is multi-line: %q", err)
				}
				t.Logf("%v: %v", ce.Kind, err)
			})
		}
	}
}

func TestRoundRobin(t *testing.T) {
	for _, tg := range testdb.Targets(t) {
		if tg.Kind == target.SQLite {
			continue
		}
		t.Run(string(tg.Kind), func(t *testing.T) {
			two := *tg
			host, port, _ := strings.Cut(tg.Endpoints[0], ":")
			two.Endpoints = []string{tg.Endpoints[0], "localhost:" + port}
			if host == "localhost" {
				two.Endpoints[1] = "127.0.0.1:" + port
			}
			c, err := target.NewConnector(&two, target.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			ctx := ctxT(t)
			var wg sync.WaitGroup
			errs := make(chan error, 6)
			for i := 0; i < 6; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s, err := c.Connect(ctx)
					if err != nil {
						errs <- err
						return
					}
					defer s.Close()
					if _, err := s.Exec(ctx, "SELECT 1"); err != nil {
						errs <- err
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			got := c.EndpointCounts()
			if got[two.Endpoints[0]] != 3 || got[two.Endpoints[1]] != 3 || len(got) != 2 {
				t.Errorf("EndpointCounts = %v, want 3 per endpoint", got)
			}
			if c.Target() != &two {
				t.Errorf("Target() is not the connector's target")
			}
		})
	}
}

func TestConnectorClosed(t *testing.T) {
	tg := testdb.For(t, target.SQLite, "target")
	c, err := target.NewConnector(tg, target.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Connect(ctxT(t)); !errors.Is(err, target.ErrConnectorClosed) {
		t.Fatalf("Connect after Close: %v", err)
	}
}

func TestSQLiteCreatesDirectory(t *testing.T) {
	path := t.TempDir() + "/a/b/c.db"
	tg, err := target.Parse("sqlite://" + path)
	if err != nil {
		t.Fatal(err)
	}
	_, c := testdb.Connect(t, tg, target.Options{})
	if c.Endpoint() != path {
		t.Errorf("Endpoint() = %q, want %q", c.Endpoint(), path)
	}
	mustExec(t, c, "CREATE TABLE x (id INT)")
}

func TestEndTxIgnoresCancel(t *testing.T) {
	forEach(t, func(t *testing.T, tg *target.Target, mode target.StatementMode) {
		_, c := testdb.Connect(t, tg, target.Options{StatementMode: mode})
		table := "endtx_" + string(mode)
		mustExec(t, c, "DROP TABLE IF EXISTS "+table)
		mustExec(t, c, "CREATE TABLE "+table+" (id INT PRIMARY KEY)")
		for i, commit := range []bool{true, false} {
			ctx, cancel := context.WithCancel(context.Background())
			if err := c.Begin(ctx, true); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Exec(ctx, "INSERT INTO "+table+" VALUES (?)", i); err != nil {
				t.Fatal(err)
			}
			cancel()
			var err error
			if commit {
				err = c.Commit(ctx)
			} else {
				err = c.Rollback(ctx)
			}
			if err != nil {
				t.Fatalf("commit=%v with cancelled ctx: %v", commit, err)
			}
		}
		// Exactly the committed row exists and no transaction is left open.
		if err := c.Begin(ctxT(t), true); err != nil {
			t.Fatalf("begin after: %v", err)
		}
		var n int64
		st := mustPrepare(t, c, "SELECT COUNT(*) FROM "+table)
		if err := st.QueryRow(ctxT(t), []any{&n}); err != nil || n != 1 {
			t.Fatalf("rows = %d, %v; want 1", n, err)
		}
		if err := c.Commit(ctxT(t)); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSQLiteWritersQueue: the sessions of one Connector take SQLite's write
// lock one at a time in the order they asked (sqliteBackend.gate), a queued
// writer gives up when its context ends, and readers do not queue.
func TestSQLiteWritersQueue(t *testing.T) {
	tg, err := target.Parse("sqlite://" + t.TempDir() + "/w.db")
	if err != nil {
		t.Fatal(err)
	}
	conn, a := testdb.Connect(t, tg, target.Options{})
	mustExec(t, a, "CREATE TABLE w (id INT)")
	open := func() target.Conn {
		c, err := conn.Connect(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	if err := a.Begin(ctxT(t), true); err != nil {
		t.Fatal(err)
	}
	// A writer with a short deadline gives up with its context's error
	// (not SQLite's busy timeout of 30 s).
	short, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := open().Begin(short, true); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("queued writer with a 100 ms deadline: %v, want context.DeadlineExceeded", err)
	}
	// A reader does not queue behind the writer.
	r := open()
	began := time.Now()
	if err := r.Begin(ctxT(t), false); err != nil || time.Since(began) > time.Second {
		t.Fatalf("reader while a writer holds the lock: %v after %v", err, time.Since(began))
	}
	var n int64
	if err := mustPrepare(t, r, "SELECT COUNT(*) FROM w").QueryRow(ctxT(t), []any{&n}); err != nil {
		t.Fatal(err)
	}
	if err := r.Rollback(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	// Three writers asking 20 ms apart get the lock in that order.
	var mu sync.Mutex
	var order []int
	done := make(chan error, 3)
	for i := range 3 {
		c := open()
		go func() {
			err := c.Begin(ctxT(t), true)
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			if err == nil {
				_, err = c.Exec(ctxT(t), "INSERT INTO w VALUES (?)", i)
			}
			if err == nil {
				err = c.Commit(ctxT(t))
			}
			done <- err
		}()
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	if len(order) != 0 {
		t.Errorf("writers %v began while another session held the write lock", order)
	}
	mu.Unlock()
	if err := a.Commit(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if fmt.Sprint(order) != "[0 1 2]" {
		t.Errorf("writers began in the order %v, want [0 1 2] (the order they asked)", order)
	}
}
