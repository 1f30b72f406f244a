package target_test

import (
	"database/sql"
	"testing"
	"time"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// TestArgumentsByPointer: the values the TPC-C terminals bind by pointer
// (*int64, *string, *time.Time, *target.Cents, *target.TextBuf, nil as
// NULL) and the destinations they scan into without allocating
// (target.TextBuf, target.Discard, sql.NullInt64) round-trip on every
// server, statement mode and MySQL client: the protocol client and the
// PostgreSQL lean path handle them themselves, pgx and database/sql
// through Value and Scan.
func TestArgumentsByPointer(t *testing.T) {
	type variant struct {
		name string
		opts target.Options
	}
	for _, tg := range testdb.Targets(t) {
		variants := []variant{{"prepared", target.Options{StatementMode: target.Prepared}}}
		if tg.Kind != target.SQLite {
			variants = append(variants, variant{"text", target.Options{StatementMode: target.Text}})
		}
		if tg.Kind == target.MySQL {
			variants = append(variants, variant{"driver", target.Options{StatementMode: target.Prepared, MySQLClient: target.MySQLClientDriver}})
		}
		for _, v := range variants {
			t.Run(string(tg.Kind)+"/"+v.name, func(t *testing.T) {
				ctx := ctxT(t)
				_, c := testdb.Connect(t, tg, v.opts)
				table := "byptr_" + v.name
				mustExec(t, c, "DROP TABLE IF EXISTS "+table)
				mustExec(t, c, "CREATE TABLE "+table+" (id BIGINT PRIMARY KEY, name VARCHAR(30), code CHAR(8), ts TIMESTAMP NULL, amt DECIMAL(12,2), n INT NULL)")
				ins := mustPrepare(t, c, "INSERT INTO "+table+" (id, name, code, ts, amt, n) VALUES (?, ?, ?, ?, ?, ?)")
				id, name, when, amt, n := int64(70000), "it's", time.Date(2026, 11, 27, 1, 2, 3, 0, time.UTC), target.Cents(-1234), int64(300)
				var code target.TextBuf
				code.SetString("dist-012") // CHAR(8) filled: PostgreSQL pads, MySQL strips
				if _, err := ins.Exec(ctx, &id, &name, &code, &when, &amt, &n); err != nil {
					t.Fatalf("insert: %v", err)
				}
				id2 := int64(70001)
				if _, err := ins.Exec(ctx, &id2, (*string)(nil), &code, (*time.Time)(nil), &amt, (*int64)(nil)); err != nil {
					t.Fatalf("insert NULLs: %v", err)
				}
				sel := mustPrepare(t, c, "SELECT name, code, ts, amt, n FROM "+table+" WHERE id = ?")
				var gotName, gotCode target.TextBuf
				var gotAmt target.Cents
				var gotN sql.NullInt64
				dest := []any{&gotName, &gotCode, &target.Discard{}, &gotAmt, &gotN}
				if err := sel.QueryRow(ctx, dest, &id); err != nil {
					t.Fatalf("select: %v", err)
				}
				code.SetString("changed") // the scanned text is the buffer's own
				if !gotName.Equal(name) || !gotCode.Equal("dist-012") || gotAmt != amt || !gotN.Valid || gotN.Int64 != n {
					t.Errorf("row = %q %q %v %v, want %q dist-012 %v %d", gotName.String(), gotCode.String(), gotAmt, gotN, name, amt, n)
				}
				// NULLs: the name into a TextBuf is an error (as into a
				// *string), the timestamp is discarded, n is not valid.
				dest[0] = &target.Discard{}
				if err := sel.QueryRow(ctx, dest, &id2); err != nil {
					t.Fatalf("select NULLs: %v", err)
				}
				if gotN.Valid {
					t.Errorf("NULL n scanned as %v", gotN)
				}
				dest[0] = &gotName
				if err := sel.QueryRow(ctx, dest, &id2); err == nil {
					t.Errorf("NULL into a TextBuf: no error")
				}
			})
		}
	}
}
