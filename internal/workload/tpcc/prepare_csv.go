package tpcc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"benchpress/internal/load"
)

// ExportConfig configures ExportCSV.
type ExportConfig struct {
	Warehouses int
	// WarehouseLo..WarehouseHi, when WarehouseHi > 0, export only those
	// warehouses (ITEM only with Items).
	WarehouseLo, WarehouseHi int
	Items                    bool
	Threads                  int
	Seed                     uint64
	Names                    Names
	// Dialect is how NULL is written: load.CSVMySQL (\N, for LOAD DATA) or
	// load.CSVPostgres (empty field, for COPY ... (FORMAT csv)).
	Dialect load.CSVDialect
	Dir     string
	// Now is the load timestamp (default time.Now).
	Now func() time.Time
}

// ExportStats summarises an export.
type ExportStats struct {
	Meta  Meta
	Files int
	Rows  int64
	Bytes int64
	Total time.Duration
}

// ExportCSV writes the data set as CSV files in cfg.Dir, one per table and
// load unit, named <table>.<unit>.csv (e.g. stock.3-3.csv,
// item.1-20000.csv), with the columns in table order, so that any client
// can load them (LOAD DATA LOCAL INFILE ... FIELDS TERMINATED BY ','
// OPTIONALLY ENCLOSED BY '"', or \copy ... WITH (FORMAT csv)). The files
// hold the same rows prepare would load with the same seed and timestamp.
func ExportCSV(ctx context.Context, cfg ExportConfig) (ExportStats, error) {
	start := time.Now()
	var st ExportStats
	if cfg.Names.Meta == "" {
		cfg.Names, _ = NamesFor("standard")
	}
	now := time.Now
	if cfg.Now != nil {
		now = cfg.Now
	}
	threads := max(cfg.Threads, 1)
	// One file per table per warehouse: plan as if single-threaded (no
	// splitting of the big tables).
	spec := planSpec{wlo: 1, whi: cfg.Warehouses, items: true, threads: 1}
	if cfg.WarehouseHi > 0 {
		spec.wlo, spec.whi, spec.items = cfg.WarehouseLo, cfg.WarehouseHi, cfg.Items
	}
	if spec.wlo < 1 || spec.whi < spec.wlo {
		return st, fmt.Errorf("tpcc export: bad warehouse range %d-%d", spec.wlo, spec.whi)
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return st, fmt.Errorf("tpcc export: %w", err)
	}
	meta := NewMeta(cfg.Names.Scheme, spec.whi, cfg.Seed, now())
	st.Meta = meta
	p := meta.GenParams()
	spans := planSpans(spec)
	work := make(chan plannedSpan)
	var (
		wg          sync.WaitGroup
		mu          sync.Mutex
		firstErr    error
		rows, bytes atomic.Int64
	)
	go func() {
		defer close(work)
		for _, ps := range spans {
			select {
			case work <- ps:
			case <-ctx.Done():
				return
			}
		}
	}()
	for i := 0; i < threads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ps := range work {
				n, b, err := exportSpan(cfg, p, ps)
				rows.Add(n)
				bytes.Add(b)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	st.Files, st.Rows, st.Bytes, st.Total = len(spans), rows.Load(), bytes.Load(), time.Since(start)
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return st, firstErr
}

// exportFileName is <table>.<unit>.csv, the unit being the part of the unit
// key after the table with ':' replaced by '_'.
func exportFileName(n Names, t tableID, sp span) string {
	key := strings.TrimPrefix(unitKey(t, sp), unitKeyPrefix+tableNames[t]+":")
	return t.physical(n) + "." + strings.ReplaceAll(key, ":", "_") + ".csv"
}

func exportSpan(cfg ExportConfig, p GenParams, ps plannedSpan) (int64, int64, error) {
	table := ps.t.physical(cfg.Names)
	name := filepath.Join(cfg.Dir, exportFileName(cfg.Names, ps.t, ps.sp))
	f, err := os.Create(name)
	if err != nil {
		return 0, 0, fmt.Errorf("export %s warehouses %d-%d: %w", table, ps.sp.wlo, ps.sp.whi, err)
	}
	r := load.NewCSVReader(newSource(ps.t, p, ps.sp), cfg.Dialect, nil)
	w := bufio.NewWriterSize(f, 1<<20)
	n, err := io.Copy(w, r)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return r.Rows(), n, fmt.Errorf("export %s warehouses %d-%d to %s: %w", table, ps.sp.wlo, ps.sp.whi, name, err)
	}
	return r.Rows(), n, nil
}
