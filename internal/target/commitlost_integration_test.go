package target_test

import (
	"bytes"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// A COMMIT the server received and committed, whose reply never reached
// the client (the connection dropped on the way back, as a proxy's or a
// network's failure does), is reported as a lost session whose outcome is
// unknown; the row is there. On both servers and in both statement modes
// (MySQL: protocol client and driver), through a relay that forwards the
// COMMIT and then closes the client's side.
func TestCommitLostBeforeReply(t *testing.T) {
	for _, tg := range testdb.Targets(t) {
		if tg.Kind == target.SQLite {
			continue
		}
		t.Run(string(tg.Kind), func(t *testing.T) {
			ctx := ctxT(t)
			_, admin := testdb.Connect(t, tg, target.Options{})
			mustExec(t, admin, "DROP TABLE IF EXISTS commit_lost")
			mustExec(t, admin, "CREATE TABLE commit_lost (id INT PRIMARY KEY)")

			// The COMMIT as each protocol's simple query sends it (MySQL
			// COM_QUERY, PostgreSQL 'Q').
			commit := []byte("\x07\x00\x00\x00\x03COMMIT")
			if tg.Kind == target.Postgres {
				commit = []byte("Q\x00\x00\x00\x0bcommit\x00")
			}
			relayed := *tg
			relayed.Endpoints = []string{dropAfter(t, tg.Endpoints[0], commit)}
			relayed.Params = map[string]string{}
			for k, v := range tg.Params {
				relayed.Params[k] = v
			}
			if tg.Kind == target.Postgres {
				relayed.Params["sslmode"] = "disable" // the relay reads the COMMIT
			}
			for i, mode := range modes {
				_, c := testdb.Connect(t, &relayed, target.Options{StatementMode: mode})
				if err := c.Begin(ctx, true); err != nil {
					t.Fatal(err)
				}
				if _, err := c.Exec(ctx, "INSERT INTO commit_lost (id) VALUES (?)", i); err != nil {
					t.Fatal(err)
				}
				err := c.Commit(ctx)
				var lost *target.CommitLostError
				if !errors.As(err, &lost) || target.Classify(err) != target.ClassLostConnection {
					t.Fatalf("%s: commit error %v (class %v), want a CommitLostError of class lost_connection", mode, err, target.Classify(err))
				}
				rows, err := admin.Query(ctx, "SELECT count(*) FROM commit_lost WHERE id = ?", i)
				if err != nil {
					t.Fatal(err)
				}
				var n int64
				for rows.Next() {
					if err := rows.Scan(&n); err != nil {
						t.Fatal(err)
					}
				}
				rows.Close()
				if n != 1 {
					t.Fatalf("%s: the row is not there after the lost COMMIT: the relay did not forward it (the test proves nothing)", mode)
				}
			}
		})
	}
}

// dropAfter relays one connection at a time to server and, once the client
// has sent pattern (forwarded), drops the server's replies and closes the
// client's side. It returns the relay's address; it stops with the test.
func dropAfter(t *testing.T, server string, pattern []byte) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			cc, err := ln.Accept()
			if err != nil {
				return
			}
			sc, err := net.Dial("tcp", server)
			if err != nil {
				cc.Close()
				continue
			}
			var seen atomic.Bool
			wg.Add(2)
			go func() { // client -> server
				defer wg.Done()
				buf := make([]byte, 64<<10)
				for {
					n, err := cc.Read(buf)
					if n > 0 {
						if bytes.Contains(buf[:n], pattern) {
							seen.Store(true)
						}
						if _, werr := sc.Write(buf[:n]); werr != nil {
							break
						}
					}
					if err != nil {
						break
					}
				}
				sc.Close()
			}()
			go func() { // server -> client, until the pattern went by
				defer wg.Done()
				buf := make([]byte, 64<<10)
				for {
					n, err := sc.Read(buf)
					if seen.Load() {
						cc.Close()
						_, _ = io.Copy(io.Discard, sc)
						break
					}
					if n > 0 {
						if _, werr := cc.Write(buf[:n]); werr != nil {
							break
						}
					}
					if err != nil {
						break
					}
				}
				cc.Close()
			}()
		}
	}()
	return ln.Addr().String()
}
