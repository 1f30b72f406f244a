package sysbench

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"benchpress/internal/randgen"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// prepareBatchRows is the number of rows per multi-row INSERT in prepare.
const prepareBatchRows = 1000

// Prepare creates and loads sbtest1..sbtestN like sysbench's prepare
// (reference §2.1): loader thread t (0-based) creates tables t+1,
// t+1+threads, ...; each table is filled with o.TableSize rows by multi-row
// INSERTs (ids assigned by the database when AutoInc, else 1..TableSize),
// then its secondary index k_N is created. progress, if set, is called after
// every batch with the table and the rows just added; it must be safe for
// concurrent use. It returns every loader's error, joined.
func Prepare(ctx context.Context, d Dialer, o Options, threads int, progress func(table string, rows int64)) error {
	if err := o.Validate(); err != nil {
		return fmt.Errorf("sysbench: %w", err)
	}
	return prepare(ctx, d, &o, o.TableSize, threads, progress)
}

// Prepare is the package Prepare with the test's own rule: oltp_insert with
// auto_inc off creates empty tables, since ids loaded by prepare could
// collide with the ones sysbench.rand.unique() generates (oltp_insert.lua).
func (w *Workload) Prepare(ctx context.Context, d Dialer, threads int, progress func(table string, rows int64)) error {
	return prepare(ctx, d, &w.opts, w.PrepareRows(), threads, progress)
}

// PrepareRows is the rows Prepare loads into each table: the table size,
// or none for oltp_insert with auto_inc off.
func (w *Workload) PrepareRows() int {
	if w.test == Insert && !w.opts.AutoInc {
		return 0
	}
	return w.opts.TableSize
}

func prepare(ctx context.Context, d Dialer, o *Options, rows, threads int, progress func(string, int64)) error {
	if threads < 1 {
		threads = 1
	}
	if threads > o.Tables {
		threads = o.Tables
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, threads)
	var wg sync.WaitGroup
	for th := 0; th < threads; th++ {
		wg.Add(1)
		go func(th int) {
			defer wg.Done()
			conn, err := d.Connect(ctx)
			if err != nil {
				errs[th] = err
				cancel()
				return
			}
			defer conn.Close()
			r := randgen.New(uint64(th)+1, 0x5b)
			dist, _ := randgen.NewSBDist(o.RandType, o.distParams())
			for n := th + 1; n <= o.Tables; n += threads {
				if err := prepareTable(ctx, conn, o, n, rows, r, dist, progress); err != nil {
					errs[th] = fmt.Errorf("%s: %w", tableName(n), err)
					cancel()
					return
				}
			}
		}(th)
	}
	wg.Wait()
	var out []error
	for _, e := range errs {
		if e != nil && !(errors.Is(e, context.Canceled) && ctx.Err() != nil && len(out) > 0) {
			out = append(out, e)
		}
	}
	return errors.Join(out...)
}

func prepareTable(ctx context.Context, conn target.Conn, o *Options, n, rows int, r *randgen.Rand, dist *randgen.SBDist, progress func(string, int64)) error {
	ddl, err := createTableSQL(conn.Kind(), n, o)
	if err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, ddl); err != nil {
		return fmt.Errorf("create table: %w", err)
	}
	// The values are digits and dashes only, so they are inlined as
	// literals (as sysbench does) instead of thousands of placeholders.
	// Through a sharding proxy the ids are always given: an AUTO_INCREMENT
	// of each shard would repeat them, and the proxy routes on id.
	proxy := target.ProxyName(conn.ServerVersion()) != ""
	perStmt := prepareBatchRows
	var b []byte
	for done := 0; done < rows; {
		batch := min(perStmt, rows-done)
		b = b[:0]
		if o.AutoInc && !proxy {
			b = append(b, "INSERT INTO "+tableName(n)+" (k, c, pad) VALUES "...)
		} else {
			b = append(b, "INSERT INTO "+tableName(n)+" (id, k, c, pad) VALUES "...)
		}
		for i := 0; i < batch; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '(')
			if !o.AutoInc || proxy {
				b = strconv.AppendInt(b, int64(done+i+1), 10)
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(dist.Default(r, 1, o.TableSize)), 10)
			b = append(b, ",'"...)
			b = r.AppendSBString(b, cTemplate)
			b = append(b, "','"...)
			b = r.AppendSBString(b, padTemplate)
			b = append(b, "')"...)
		}
		if _, err := conn.Exec(ctx, string(b)); err != nil {
			if batch > 1 && target.RefusedByProxy(conn, err) {
				// The proxy cannot route one INSERT to several shards:
				// the rest goes one row per statement.
				perStmt = 1
				continue
			}
			return fmt.Errorf("insert rows %d..%d: %w", done+1, done+batch, err)
		}
		done += batch
		if progress != nil {
			progress(tableName(n), int64(batch))
		}
	}
	for _, ix := range postLoadIndexes(conn.Kind(), n, o) {
		if _, err := conn.Exec(ctx, ix); err != nil {
			return fmt.Errorf("create index: %w", err)
		}
	}
	return nil
}

// Cleanup drops sbtest1..sbtestN (sysbench cleanup).
func Cleanup(ctx context.Context, conn target.Conn, o Options) error {
	var errs []error
	for n := 1; n <= o.Tables; n++ {
		if _, err := conn.Exec(ctx, "DROP TABLE IF EXISTS "+tableName(n)); err != nil {
			errs = append(errs, fmt.Errorf("drop %s: %w", tableName(n), err))
		}
	}
	return errors.Join(errs...)
}

// CheckPrepared verifies cheaply that sbtest1..sbtestN exist and that each
// holds ids up to exactly o.TableSize (one indexed MAX(id) per table). A
// missing table wraps workload.ErrNotPrepared; a different MAX(id) wraps
// workload.ErrScaleMismatch. Use (*Workload).CheckPrepared for the
// test-aware check (oltp_insert and oltp_delete change the tables).
func CheckPrepared(ctx context.Context, conn target.Conn, o Options) error {
	return checkPrepared(ctx, conn, &o, "")
}

// CheckPrepared is CheckPrepared with the test's tolerance: oltp_insert adds
// rows (no size check; with auto_inc off its tables start empty), and
// oltp_delete removes them (MAX(id) may be below TableSize, not above).
func (w *Workload) CheckPrepared(ctx context.Context, conn target.Conn) error {
	return checkPrepared(ctx, conn, &w.opts, w.test)
}

func checkPrepared(ctx context.Context, conn target.Conn, o *Options, test string) error {
	var errs []error
	for n := 1; n <= o.Tables; n++ {
		max, err := maxID(ctx, conn, n)
		switch {
		case err != nil && isMissingTable(err):
			errs = append(errs, fmt.Errorf("%w: table %s does not exist (run prepare with --tables %d)", workload.ErrNotPrepared, tableName(n), o.Tables))
			continue
		case err != nil:
			errs = append(errs, fmt.Errorf("check %s: %w", tableName(n), err))
			continue
		}
		ok := max == int64(o.TableSize)
		switch test {
		case Insert:
			ok = true
		case Delete:
			ok = max <= int64(o.TableSize)
		}
		if !ok {
			errs = append(errs, fmt.Errorf("%w: %s holds ids up to %d but table_size is %d (prepare again with the same --table-size; an oltp_insert run adds rows)",
				workload.ErrScaleMismatch, tableName(n), max, o.TableSize))
		}
	}
	return errors.Join(errs...)
}

// maxID returns MAX(id) of sbtestN (0 for an empty table).
func maxID(ctx context.Context, conn target.Conn, n int) (int64, error) {
	rows, err := conn.Query(ctx, "SELECT COALESCE(MAX(id), 0) FROM "+tableName(n))
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var max int64
	if rows.Next() {
		if err := rows.Scan(&max); err != nil {
			return 0, err
		}
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	return max, rows.Close()
}
