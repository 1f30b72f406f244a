package tpcc

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"benchpress/internal/load"
	"benchpress/internal/target"
	"benchpress/internal/testdb"
	"benchpress/internal/workload"
)

// bulkTargets returns connectors on database bp_t_tpcc_bulk (own tables, so
// these tests never share data with the other load tests).
func bulkTargets(t *testing.T) map[string]*target.Connector {
	t.Helper()
	return testdb.Connectors(t, "tpcc_bulk", target.Options{ConnectTimeout: 5 * time.Second})
}

var pinnedNow = func() time.Time { return time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC) }

// tableFingerprint returns "count:checksum" of the rows of table t matching
// where: a CRC32 / MD5 sum over every column on the servers (NULL kept
// distinct from ”), a length sum on SQLite.
func tableFingerprint(t *testing.T, ctx context.Context, conn target.Conn, tab tableID, where string) string {
	t.Helper()
	n, _ := NamesFor("standard")
	var parts []string
	for _, c := range columns[tab] {
		switch conn.Kind() {
		case target.Postgres:
			parts = append(parts, "COALESCE("+c+"::text, '~')")
		default:
			parts = append(parts, "COALESCE("+c+", '~')")
		}
	}
	var q string
	switch conn.Kind() {
	case target.MySQL:
		q = "SELECT CONCAT(COUNT(*), ':', COALESCE(SUM(CRC32(CONCAT_WS('|', " + strings.Join(parts, ",") + "))), 0)) FROM "
	case target.Postgres:
		q = "SELECT COUNT(*)::text || ':' || COALESCE(SUM(('x' || substr(md5(concat_ws('|', " + strings.Join(parts, ",") +
			")), 1, 8))::bit(32)::bigint), 0)::text FROM "
	default:
		q = "SELECT COUNT(*) || ':' || COALESCE(SUM(length(" + strings.Join(parts, " || '|' || ") + ")), 0) FROM "
	}
	q += tab.physical(n)
	if where != "" {
		q += " WHERE " + where
	}
	rows, err := conn.Query(ctx, q)
	if err != nil {
		t.Fatalf("fingerprint %s: %v", tab.physical(n), err)
	}
	defer rows.Close()
	var s string
	if !rows.Next() {
		t.Fatalf("fingerprint %s: no row (%v)", tab.physical(n), rows.Err())
	}
	if err := rows.Scan(&s); err != nil {
		t.Fatalf("fingerprint %s: %v", tab.physical(n), err)
	}
	return s
}

func fingerprints(t *testing.T, ctx context.Context, conn target.Conn, where func(tableID) string) map[string]string {
	out := map[string]string{}
	for _, tab := range createOrder {
		w := ""
		if where != nil {
			w = where(tab)
		}
		out[tableNames[tab]] = tableFingerprint(t, ctx, conn, tab, w)
	}
	return out
}

func checkAll(t *testing.T, ctx context.Context, conn target.Conn, n Names) {
	t.Helper()
	checks, err := Check(ctx, conn, n, true)
	if err != nil {
		t.Errorf("check: %v", err)
	}
	for _, ch := range checks {
		if !ch.Passed {
			t.Errorf("condition %s failed: %s", ch.Name, ch.Detail)
		}
	}
}

// TestBulkMatchesInsert loads the same seed with INSERT and with the bulk
// path (LOAD DATA / COPY) and compares every table's fingerprint.
func TestBulkMatchesInsert(t *testing.T) {
	for name, c := range bulkTargets(t) {
		if name == string(target.SQLite) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			n, _ := NamesFor("standard")
			conn, err := c.Connect(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			got := map[load.Method]map[string]string{}
			for _, m := range []load.Method{load.MethodInsert, load.MethodAuto} {
				st, err := Prepare(ctx, c, PrepareConfig{Warehouses: 1, Threads: 4, Seed: 7, Names: n, Drop: true,
					Method: m, Now: pinnedNow})
				if err != nil {
					t.Fatalf("%s: %v", m, err)
				}
				want := load.PathInsert
				if m == load.MethodAuto {
					want = map[string]string{"mysql": load.PathLoadData, "postgres": load.PathCopy}[name]
				}
				for tab, path := range st.Methods {
					if path != want {
						t.Errorf("%s: table %s written with %s, want %s", m, tab, path, want)
					}
				}
				if len(st.Methods) != 9 || len(st.Warnings) != 0 {
					t.Errorf("%s: methods %v, warnings %q", m, st.Methods, st.Warnings)
				}
				t.Logf("%s: load %v", m, st.Load.Round(time.Millisecond))
				got[m] = fingerprints(t, ctx, conn, nil)
			}
			for tab, fp := range got[load.MethodInsert] {
				if got[load.MethodAuto][tab] != fp {
					t.Errorf("%s: bulk %s, insert %s", tab, got[load.MethodAuto][tab], fp)
				}
			}
		})
	}
}

// TestResumeAfterCancel cancels a load after a few units, resumes it, and
// expects a complete, consistent data set identical to an uninterrupted one.
func TestResumeAfterCancel(t *testing.T) {
	for name, c := range bulkTargets(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			n, _ := NamesFor("standard")
			conn, err := c.Connect(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			cfg := PrepareConfig{Warehouses: 2, Threads: 3, Seed: 9, Names: n, Drop: true, Now: pinnedNow}
			if _, err := Prepare(ctx, c, cfg); err != nil {
				t.Fatal(err)
			}
			want := fingerprints(t, ctx, conn, nil)

			cctx, cancel := context.WithCancel(ctx)
			var stopped atomic.Bool
			cfg.ProgressInterval = 5 * time.Millisecond
			cfg.Progress = func(p load.Progress) {
				if p.UnitsDone >= 6 && stopped.CompareAndSwap(false, true) {
					cancel()
				}
			}
			_, err = Prepare(cctx, c, cfg)
			cancel()
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled load: %v, want context.Canceled", err)
			}
			if _, err := ReadMeta(ctx, conn, n); err == nil {
				t.Fatal("ReadMeta accepted an interrupted load")
			}
			kv, err := readMetaMap(ctx, conn, n)
			if err != nil {
				t.Fatal(err)
			}
			done := 0
			for k := range kv {
				if strings.HasPrefix(k, unitKeyPrefix) {
					done++
				}
			}
			st, err := Prepare(ctx, c, PrepareConfig{Resume: true, Threads: 2, Seed: 1, Names: n})
			if err != nil {
				t.Fatalf("resume: %v", err)
			}
			t.Logf("%d units were done; resume loaded %d units, %d rows", done, st.Units, st.Rows)
			if done == 0 || st.Units == 0 {
				t.Errorf("resume: %d units done before, %d loaded by resume", done, st.Units)
			}
			if _, err := ReadMeta(ctx, conn, n); err != nil {
				t.Fatalf("after resume: %v", err)
			}
			checkAll(t, ctx, conn, n)
			gotFP := fingerprints(t, ctx, conn, nil)
			for tab, fp := range want {
				if gotFP[tab] != fp {
					t.Errorf("%s: after resume %s, uninterrupted %s", tab, gotFP[tab], fp)
				}
			}
			// Resuming a complete data set loads nothing.
			if st, err := Prepare(ctx, c, PrepareConfig{Resume: true, Threads: 2, Names: n}); err != nil || st.Units != 0 {
				t.Errorf("resume of a complete set: %d units, %v", st.Units, err)
			}
		})
	}
}

// TestWarehouseRange adds warehouse 2 to a one-warehouse data set and checks
// that warehouse 1 and ITEM are untouched.
func TestWarehouseRange(t *testing.T) {
	for name, c := range bulkTargets(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			n, _ := NamesFor("standard")
			conn, err := c.Connect(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := Prepare(ctx, c, PrepareConfig{Warehouses: 1, Threads: 2, Seed: 5, Names: n, Drop: true, Now: pinnedNow}); err != nil {
				t.Fatal(err)
			}
			w1 := func(tab tableID) string {
				if col := spanColumns[tab][0]; col != "" {
					return col + " = 1"
				}
				return ""
			}
			before := fingerprints(t, ctx, conn, w1)
			st, err := Prepare(ctx, c, PrepareConfig{WarehouseLo: 2, WarehouseHi: 2, Threads: 2, Seed: 99, Names: n})
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range []string{"item"} {
				if _, ok := st.Methods[u]; ok {
					t.Errorf("range load rewrote %s", u)
				}
			}
			if len(st.Warnings) == 0 || !strings.Contains(st.Warnings[0], "seed 5") {
				t.Errorf("warnings %q, want the seed note", st.Warnings)
			}
			after := fingerprints(t, ctx, conn, w1)
			for tab, fp := range before {
				if after[tab] != fp {
					t.Errorf("%s: warehouse 1 changed: %s -> %s", tab, fp, after[tab])
				}
			}
			m, err := ReadMeta(ctx, conn, n)
			if err != nil || m.Warehouses != 2 || m.Seed != 5 {
				t.Fatalf("meta after range load: %+v, %v", m, err)
			}
			checkAll(t, ctx, conn, n)
			// A range past the next warehouse would record warehouses
			// without rows: refused, the data set untouched.
			if _, err := Prepare(ctx, c, PrepareConfig{WarehouseLo: 4, WarehouseHi: 5, Threads: 2, Names: n}); err == nil || !strings.Contains(err.Error(), "warehouses 3-3 of the data set (2 loaded) without rows") {
				t.Errorf("range 4-5 on 2 warehouses: err = %v, want the gap refused", err)
			}
			if m, err := ReadMeta(ctx, conn, n); err != nil || m.Warehouses != 2 {
				t.Errorf("meta after the refused range: %+v, %v", m, err)
			}
			// Warehouse 2 equals warehouse 2 of a full two-warehouse load.
			w2 := func(tab tableID) string {
				if col := spanColumns[tab][0]; col != "" {
					return col + " = 2"
				}
				return ""
			}
			ranged := fingerprints(t, ctx, conn, w2)
			if _, err := Prepare(ctx, c, PrepareConfig{Warehouses: 2, Threads: 2, Seed: 5, Names: n, Drop: true, Now: pinnedNow}); err != nil {
				t.Fatal(err)
			}
			full := fingerprints(t, ctx, conn, w2)
			for tab, fp := range full {
				if ranged[tab] != fp {
					t.Errorf("%s warehouse 2: range load %s, full load %s", tab, ranged[tab], fp)
				}
			}
			// Warehouse 2's load failed (its units unrecorded): a range
			// added after it must not mark the set complete, and runs
			// refuse it naming what is missing, until --resume loads it.
			if _, err := conn.Exec(ctx, "DELETE FROM "+n.Meta+" WHERE meta_key LIKE 'unit:%:2-2%'"); err != nil {
				t.Fatal(err)
			}
			if err := setMetaTx(ctx, conn, n, [][2]string{{keyStatus, statusLoading}}); err != nil {
				t.Fatal(err)
			}
			st, err = Prepare(ctx, c, PrepareConfig{WarehouseLo: 3, WarehouseHi: 3, Threads: 2, Names: n})
			if err != nil || st.Incomplete != "warehouse 2" {
				t.Fatalf("range 3-3 over a failed warehouse 2: incomplete %q, %v; want warehouse 2", st.Incomplete, err)
			}
			if _, err := ReadMeta(ctx, conn, n); !errors.Is(err, workload.ErrNotPrepared) || !strings.Contains(err.Error(), "warehouse 2 not loaded") {
				t.Fatalf("ReadMeta of the incomplete set: %v", err)
			}
			if st, err = Prepare(ctx, c, PrepareConfig{Resume: true, Threads: 2, Names: n}); err != nil || st.Incomplete != "" {
				t.Fatalf("resume: %q, %v", st.Incomplete, err)
			}
			if m, err := ReadMeta(ctx, conn, n); err != nil || m.Warehouses != 3 {
				t.Fatalf("meta after the resume: %+v, %v", m, err)
			}
			if got := fingerprints(t, ctx, conn, w2); got[tableNames[tStock]] != full[tableNames[tStock]] {
				t.Errorf("warehouse 2 after the resume: stock %s, want %s", got[tableNames[tStock]], full[tableNames[tStock]])
			}
			// With foreign keys a range would load child rows before their
			// parents: refused, with the remedy.
			if conn.Kind() == target.SQLite {
				return
			}
			if _, err := Prepare(ctx, c, PrepareConfig{Warehouses: 1, Threads: 2, Seed: 5, Names: n, Drop: true, FK: true, Now: pinnedNow}); err != nil {
				t.Fatal(err)
			}
			if _, err := Prepare(ctx, c, PrepareConfig{WarehouseLo: 2, WarehouseHi: 2, Threads: 2, Names: n}); err == nil || !strings.Contains(err.Error(), "--drop --fk --warehouses 2") {
				t.Errorf("range on a data set with foreign keys: err = %v, want it refused", err)
			}
			// A load that failed while adding its foreign keys: --resume
			// --fk adds those still missing.
			drop := "ALTER TABLE " + n.Stock + " DROP FOREIGN KEY " + n.Stock + "_fk_i"
			if conn.Kind() == target.Postgres {
				drop = "ALTER TABLE " + n.Stock + " DROP CONSTRAINT " + n.Stock + "_fk_i"
			}
			if _, err := conn.Exec(ctx, drop); err != nil {
				t.Fatal(err)
			}
			if st, err := Prepare(ctx, c, PrepareConfig{Resume: true, FK: true, Threads: 2, Names: n}); err != nil || len(st.Warnings) > 0 {
				t.Fatalf("resume --fk: %v, warnings %q", err, st.Warnings)
			}
			have, err := foreignKeyNames(ctx, conn)
			if err != nil || len(have) < len(foreignKeys(n)) || !have[strings.ToLower(n.Stock+"_fk_i")] {
				t.Fatalf("foreign keys after resume --fk: %v, %v", have, err)
			}
		})
	}
}
