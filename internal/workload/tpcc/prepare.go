package tpcc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"benchpress/internal/load"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// ErrTablesExist is returned (wrapped, naming the tables found) by Prepare
// when the scheme's tables are already there and Drop was not requested. The
// CLI maps it to exit code 7 (cli/exit.go).
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
	// ProgressInterval is the period of Progress calls (default 1s).
	ProgressInterval time.Duration
	// WarehouseLo..WarehouseHi, when WarehouseHi > 0, load only those
	// warehouses (--warehouse-range): into an existing data set without
	// touching its other warehouses (its seed and load time are reused and
	// its warehouse count becomes the larger of the two), or as a new data
	// set. ITEM is loaded only where it is missing, or again with Items.
	WarehouseLo, WarehouseHi int
	// Items reloads ITEM into an existing data set.
	Items bool
	// Resume continues an interrupted load: units recorded as done are
	// skipped, the rows of unrecorded units are deleted and loaded again,
	// then indexes and metadata are finished.
	Resume bool
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
	// Incomplete, when not empty, names what the data set still lacks
	// after this load (describeUnloaded): a range was loaded into a data
	// set whose other parts are not (yet) there, so its status stays
	// "loading" and runs refuse it.
	Incomplete string
}

// Prepare creates and loads a TPC-C data set of cfg.Warehouses warehouses
// (clause 4.3.3.1): tables and metadata first, then ITEM once and the
// per-warehouse tables as parallel units, then the secondary indexes (and
// foreign keys), and finally marks the metadata complete. Each unit commits
// with its "unit:..." metadata row.
func Prepare(ctx context.Context, d load.Dialer, cfg PrepareConfig) (PrepareStats, error) {
	start := time.Now()
	var st PrepareStats
	if cfg.Warehouses < 1 && cfg.WarehouseHi == 0 && !cfg.Resume {
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

	wlo, whi := 1, cfg.Warehouses
	ranged := cfg.WarehouseHi > 0
	if ranged {
		wlo, whi = cfg.WarehouseLo, cfg.WarehouseHi
		if wlo < 1 || wlo > whi {
			return st, fmt.Errorf("tpcc prepare: bad warehouse range %d-%d", wlo, whi)
		}
	}
	if cfg.Resume && cfg.Drop {
		return st, errors.New("tpcc prepare: --resume and --drop exclude each other")
	}
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
	threads := max(cfg.Threads, 1)
	if conn.Kind() == target.SQLite {
		threads = 1
	}
	st.Threads = threads
	spec := planSpec{wlo: wlo, whi: whi, items: true, threads: threads}
	var meta Meta
	switch {
	case len(existing) > 0 && !cfg.Drop && (cfg.Resume || ranged):
		// Continue or extend the existing data set with its own parameters.
		if len(existing) < len(allTables(n)) {
			return st, fmt.Errorf("tpcc prepare: cannot add to an incomplete set of tables (found only %s); use --drop",
				strings.Join(existing, ", "))
		}
		kv, err := readMetaMap(ctx, conn, n)
		if err != nil {
			return st, err
		}
		if meta, err = parseMeta(kv); err != nil {
			return st, err
		}
		if meta.Scheme != n.Scheme {
			return st, fmt.Errorf("%w: --names %s but the data set was loaded with --names %s",
				workload.ErrSchemeMismatch, n.Scheme, meta.Scheme)
		}
		if meta.SchemaVersion != SchemaVersion {
			return st, fmt.Errorf("%w: data set has schema version %d, this benchpress writes %d; reload with --drop",
				workload.ErrNotPrepared, meta.SchemaVersion, SchemaVersion)
		}
		// Refusals first: nothing of the data set is changed by them.
		if (ranged || cfg.Items) && hasForeignKeys(ctx, conn, n) {
			// The units load child rows before their parents commit (and
			// --items deletes ITEM under STOCK's references).
			return st, fmt.Errorf("tpcc prepare: the data set has foreign keys (--fk): warehouses or ITEM cannot be added to it; load it again whole with --drop --fk --warehouses %d", max(meta.Warehouses, whi))
		}
		if ranged && wlo > meta.Warehouses+1 {
			// The count recorded is the highest warehouse: a gap would be
			// run as warehouses that have no rows.
			return st, fmt.Errorf("tpcc prepare: --warehouse-range %d-%d leaves warehouses %d-%d of the data set (%d loaded) without rows; start the range at %d or lower",
				wlo, whi, meta.Warehouses+1, wlo-1, meta.Warehouses, meta.Warehouses+1)
		}
		if ranged && cfg.Seed != meta.Seed {
			st.Warnings = append(st.Warnings, fmt.Sprintf("using the data set's seed %d (not --seed %d) so that the new warehouses match it", meta.Seed, cfg.Seed))
		}
		if !ranged {
			wlo, whi = 1, meta.Warehouses
			spec.wlo, spec.whi = wlo, whi
		}
		spec.done, spec.clean, spec.cleanTo = doneIntervals(kv), true, meta.Warehouses
		if cfg.Items {
			delete(spec.done, doneKey{tItem, 0})
			if _, err := conn.Exec(ctx, "DELETE FROM "+n.Meta+" WHERE meta_key LIKE ?", unitKeyPrefix+"item:%"); err != nil {
				return st, fmt.Errorf("metadata: %w", err)
			}
		}
		meta.Warehouses = max(meta.Warehouses, whi)
		if err := setMetaTx(ctx, conn, n, [][2]string{{keyWarehouses, strconv.Itoa(meta.Warehouses)}, {keyStatus, statusLoading}}); err != nil {
			return st, err
		}
	case cfg.Resume:
		return st, fmt.Errorf("%w: nothing to resume (metadata table %s not found); run prepare without --resume",
			workload.ErrNotPrepared, n.Meta)
	default:
		if ranged && wlo > 1 {
			return st, fmt.Errorf("tpcc prepare: --warehouse-range %d-%d starts a new data set without warehouses 1-%d; load 1-%d first (or --warehouses %d)",
				wlo, whi, wlo-1, wlo-1, whi)
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
		meta = NewMeta(n.Scheme, whi, cfg.Seed, now())
		if err := writeMeta(ctx, conn, n, meta); err != nil {
			return st, err
		}
	}
	st.Meta = meta
	units := plan(meta, n, spec)
	ls, err := load.Run(ctx, d, units, load.Options{
		Threads:  threads,
		Method:   cfg.Method,
		Progress: cfg.Progress,
		Interval: cfg.ProgressInterval,
		Finish: func(ctx context.Context, s *load.Session, u *load.Unit) error {
			// A plain INSERT: the keys of units being reloaded were removed
			// up front (a DELETE here would take gap locks on MySQL).
			_, err := s.Conn.Exec(ctx, "INSERT INTO "+n.Meta+" (meta_key, meta_value) VALUES (?, ?)", u.Key, "done")
			if err != nil {
				return fmt.Errorf("metadata %s: %w", u.Key, err)
			}
			return nil
		},
	})
	st.Rows, st.Bytes, st.Units, st.Load = ls.Rows, ls.Bytes, ls.Units, ls.Elapsed
	st.Methods = ls.Methods
	st.Warnings = append(st.Warnings, ls.Warnings...)
	if err != nil {
		return st, fmt.Errorf("tpcc load: %w", err)
	}

	t0 := time.Now()
	created, err := postLoad(ctx, d, conn, n, threads)
	if err != nil {
		return st, err
	}
	// Foreign keys come with the load that creates the indexes, or with a
	// --resume of a load that failed after its indexes (adding those still
	// missing); a range added to a data set gets none (another machine's
	// range may still be loading child rows).
	switch {
	case cfg.FK && !created && (ranged || !cfg.Resume):
		st.Warnings = append(st.Warnings, "foreign keys not added: they are added only by the load that creates the indexes (or by --resume --fk)")
	case cfg.FK && conn.Kind() == target.SQLite:
		st.Warnings = append(st.Warnings, "foreign keys skipped: SQLite cannot add constraints to existing tables")
	case cfg.FK:
		have, err := foreignKeyNames(ctx, conn)
		if err != nil {
			return st, err
		}
		for _, fk := range foreignKeys(n) {
			if have[strings.ToLower(fk.name)] {
				continue
			}
			if _, err := conn.Exec(ctx, fk.sql); err != nil {
				return st, fmt.Errorf("add foreign key: %s: %w", fk.sql, err)
			}
		}
	}
	st.Indexes = time.Since(t0)
	// Complete only when every unit of the whole data set is recorded: a
	// range loaded into a set whose earlier load failed, or one machine's
	// range finishing before another's, must not mark it complete. The
	// warehouse count is read again: another machine may have raised it.
	kv, err := readMetaMap(ctx, conn, n)
	if err != nil {
		return st, err
	}
	all, miss := unloadedOf(kv, st.Meta.Warehouses)
	if st.Incomplete = miss; miss != "" {
		st.Total = time.Since(start)
		return st, nil
	}
	// In a transaction: two machines finishing their ranges together must
	// not both delete the key and then collide on inserting it.
	if err := setMetaTx(ctx, conn, n, [][2]string{{keyStatus, statusComplete}}); err != nil {
		return st, err
	}
	// A range another machine began between the reading and the write
	// raised the count (and set "loading", which this write undid): read
	// again, and put "loading" back if the set is not whole any more.
	if kv, err = readMetaMap(ctx, conn, n); err != nil {
		return st, err
	}
	if w, miss := unloadedOf(kv, all); w > all && miss != "" {
		st.Incomplete = miss
		if err := setMetaTx(ctx, conn, n, [][2]string{{keyStatus, statusLoading}}); err != nil {
			return st, err
		}
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

// Units splits the load of meta's whole data set into independent units:
// ITEM in chunks, and every other table per warehouse (split further when
// there are fewer warehouses than threads); see plan.
func Units(meta Meta, n Names, threads int) []load.Unit {
	return plan(meta, n, planSpec{wlo: 1, whi: meta.Warehouses, items: true, threads: threads})
}
