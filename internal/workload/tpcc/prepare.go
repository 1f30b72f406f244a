package tpcc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"benchpress/internal/load"
	"benchpress/internal/target"
)

// ErrTablesExist is returned (wrapped, naming the tables found) by Prepare
// when the scheme's tables are already there and Drop was not requested. The
// CLI maps it to exit code 4, like the workload data-set errors.
var ErrTablesExist = errors.New("tables already exist; use --drop to recreate")

// PrepareConfig configures Prepare.
type PrepareConfig struct {
	Warehouses int
	Threads    int    // loader sessions; forced to 1 on SQLite (one writer)
	Seed       uint64 // fixes every generated value and the NURand C constants
	Drop       bool   // drop the scheme's tables (and metadata) first
	FK         bool   // add the optional foreign keys of reference §1.4 after the load
	Names      Names
	// Method is the write path (load.MethodAuto: LOAD DATA / COPY where
	// allowed, INSERT otherwise).
	Method   load.Method
	Progress func(load.Progress)
	// Now is the load timestamp (default time.Now); tests pin it.
	Now func() time.Time
}

// PrepareStats summarises a load.
type PrepareStats struct {
	Meta     Meta
	Rows     int64
	Bytes    int64
	Units    int
	Load     time.Duration // parallel row load
	Indexes  time.Duration // secondary indexes and foreign keys
	Total    time.Duration
	Threads  int
	Warnings []string // e.g. foreign keys skipped on SQLite, INSERT fallback
	// Methods maps each loaded table to the write path(s) used.
	Methods map[string]string
}

// Prepare creates and loads a TPC-C data set of cfg.Warehouses warehouses
// (clause 4.3.3.1): tables and metadata first, then ITEM once and the
// per-warehouse tables as parallel units, then the secondary indexes (and
// foreign keys), and finally marks the metadata complete. Each unit commits
// with its "unit:..." metadata row.
func Prepare(ctx context.Context, d load.Dialer, cfg PrepareConfig) (PrepareStats, error) {
	start := time.Now()
	var st PrepareStats
	if cfg.Warehouses < 1 {
		return st, fmt.Errorf("tpcc prepare: --warehouses must be >= 1, got %d", cfg.Warehouses)
	}
	if cfg.Names.Meta == "" {
		cfg.Names, _ = NamesFor("standard")
	}
	n := cfg.Names
	now := time.Now
	if cfg.Now != nil {
		now = cfg.Now
	}
	conn, err := d.Connect(ctx)
	if err != nil {
		return st, err
	}
	defer conn.Close()

	have, err := listTables(ctx, conn)
	if err != nil {
		return st, err
	}
	var existing []string
	for _, t := range allTables(n) {
		if have[strings.ToLower(t)] {
			existing = append(existing, t)
		}
	}
	if len(existing) > 0 {
		if !cfg.Drop {
			return st, fmt.Errorf("%w (found %s)", ErrTablesExist, strings.Join(existing, ", "))
		}
		if err := dropTables(ctx, conn, n); err != nil {
			return st, err
		}
	}
	if err := createTables(ctx, conn, n); err != nil {
		return st, err
	}
	meta := NewMeta(n.Scheme, cfg.Warehouses, cfg.Seed, now())
	st.Meta = meta
	if err := writeMeta(ctx, conn, n, meta); err != nil {
		return st, err
	}

	threads := max(cfg.Threads, 1)
	if conn.Kind() == target.SQLite {
		threads = 1
	}
	st.Threads = threads
	units := Units(meta, n, threads)
	ls, err := load.Run(ctx, d, units, load.Options{
		Threads:  threads,
		Method:   cfg.Method,
		Progress: cfg.Progress,
		Finish: func(ctx context.Context, s *load.Session, u *load.Unit) error {
			_, err := s.Conn.Exec(ctx, "INSERT INTO "+n.Meta+" (meta_key, meta_value) VALUES (?, ?)", u.Key, "done")
			return err
		},
	})
	st.Rows, st.Bytes, st.Units, st.Load = ls.Rows, ls.Bytes, ls.Units, ls.Elapsed
	st.Methods = ls.Methods
	st.Warnings = append(st.Warnings, ls.Warnings...)
	if err != nil {
		return st, fmt.Errorf("tpcc load: %w", err)
	}

	t0 := time.Now()
	for _, q := range indexSQL(n) {
		if _, err := conn.Exec(ctx, q); err != nil {
			return st, fmt.Errorf("create index: %s: %w", q, err)
		}
	}
	if cfg.FK {
		if conn.Kind() == target.SQLite {
			st.Warnings = append(st.Warnings, "foreign keys skipped: SQLite cannot add constraints to existing tables")
		} else {
			for _, q := range foreignKeySQL(n) {
				if _, err := conn.Exec(ctx, q); err != nil {
					return st, fmt.Errorf("add foreign key: %s: %w", q, err)
				}
			}
		}
	}
	if conn.Kind() != target.SQLite {
		analyze(ctx, conn, n)
	}
	st.Indexes = time.Since(t0)
	if err := setMeta(ctx, conn, n, keyStatus, statusComplete); err != nil {
		return st, err
	}
	st.Total = time.Since(start)
	return st, nil
}

// createTables creates the nine tables and the metadata table.
func createTables(ctx context.Context, conn target.Conn, n Names) error {
	for _, t := range createOrder {
		if _, err := conn.Exec(ctx, createTableSQL(conn.Kind(), n, t)); err != nil {
			return fmt.Errorf("create table %s: %w", t.physical(n), err)
		}
	}
	if _, err := conn.Exec(ctx, metaTableSQL(conn.Kind(), n)); err != nil {
		return fmt.Errorf("create table %s: %w", n.Meta, err)
	}
	return nil
}

// analyze refreshes optimizer statistics so the first run and the checks get
// good plans; failures are not fatal.
func analyze(ctx context.Context, conn target.Conn, n Names) {
	for _, t := range n.Tables() {
		q := "ANALYZE TABLE " + t
		if conn.Kind() == target.Postgres {
			q = "ANALYZE " + t
		}
		_, _ = conn.Exec(ctx, q)
	}
}

// Units splits the load of meta's data set into independent units: ITEM in
// chunks, and every other table per warehouse. When there are fewer
// warehouses than threads, the big per-warehouse tables (STOCK, CUSTOMER,
// ORDER-LINE) are split further by item chunk or district so that all
// threads have work.
func Units(meta Meta, n Names, threads int) []load.Unit {
	p := meta.GenParams()
	var units []load.Unit
	add := func(t tableID, sp span, est int64) {
		key := fmt.Sprintf("%s%s:%d-%d", unitKeyPrefix, tableNames[t], sp.wlo, sp.whi)
		full := (t == tStock && sp.slo == 1 && sp.shi == NumItems) ||
			(t != tStock && t != tItem && sp.slo == 1 && sp.shi == DistrictsPerWarehouse) || t == tWarehouse
		if t == tItem {
			key = fmt.Sprintf("%sitem:%d-%d", unitKeyPrefix, sp.slo, sp.shi)
		} else if !full {
			key += fmt.Sprintf(":%d-%d", sp.slo, sp.shi)
		}
		table := t.physical(n)
		units = append(units, load.Unit{Key: key, Table: table, EstRows: est,
			Run: func(ctx context.Context, s *load.Session, c *load.Counter) (int64, error) {
				rows, err := load.Write(ctx, s, table, newSource(t, p, sp), c)
				if err != nil {
					return rows, fmt.Errorf("load %s warehouses %d-%d: %w", table, sp.wlo, sp.whi, err)
				}
				return rows, nil
			}})
	}
	for lo := 1; lo <= NumItems; lo += 2 * ItemChunk {
		add(tItem, span{0, 0, lo, lo + 2*ItemChunk - 1}, 2*ItemChunk)
	}
	split := 1 // parts per warehouse for the big tables
	if meta.Warehouses < threads {
		split = min(5, (threads+meta.Warehouses-1)/meta.Warehouses)
	}
	const D = DistrictsPerWarehouse
	for w := 1; w <= meta.Warehouses; w++ {
		add(tWarehouse, span{w, w, 0, 0}, 1)
		add(tDistrict, span{w, w, 1, D}, D)
		add(tHistory, span{w, w, 1, D}, D*CustomersPerDistrict)
		add(tOrders, span{w, w, 1, D}, D*OrdersPerDistrict)
		add(tNewOrder, span{w, w, 1, D}, D*NewOrdersPerDistrict)
		for i := 0; i < split; i++ {
			dlo, dhi := 1+i*D/split, (i+1)*D/split
			add(tCustomer, span{w, w, dlo, dhi}, int64(dhi-dlo+1)*CustomersPerDistrict)
			add(tOrderLine, span{w, w, dlo, dhi}, int64(dhi-dlo+1)*OrdersPerDistrict*10)
			chunks := NumItems / ItemChunk
			ilo, ihi := 1+i*chunks/split*ItemChunk, (i+1)*chunks/split*ItemChunk
			add(tStock, span{w, w, ilo, ihi}, int64(ihi-ilo+1))
		}
	}
	return units
}
