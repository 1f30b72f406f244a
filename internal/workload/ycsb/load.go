package ycsb

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"benchpress/internal/randgen"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// loadBatchParams bounds the bind parameters of one multi-row INSERT.
const loadBatchParams = 2000

// Load is the YCSB load phase (§3.7): it creates usertable if it does not
// exist and inserts keynums [insertstart, insertstart+insertcount) with all
// fields random, split into threads contiguous ranges loaded in parallel by
// batched multi-row INSERTs, and the last keynum alone once they all
// succeeded (CheckLoaded's mark of a complete load). progress, if set,
// receives the rows of every batch (called concurrently). Loader errors
// are joined.
func Load(ctx context.Context, d Dialer, p Props, threads int, progress func(rows int64)) error {
	c, err := ParseConfig(p)
	if err != nil {
		return fmt.Errorf("ycsb: %w", err)
	}
	w := &Workload{cfg: c, fieldLenZipf: fieldLenZipfian(c)}
	conn, err := d.Connect(ctx)
	if err != nil {
		return err
	}
	_, err = conn.Exec(ctx, c.createTableSQL(conn.Kind()))
	conn.Close()
	if err != nil {
		return fmt.Errorf("create table %s: %w", c.Table, err)
	}
	if c.InsertCount == 0 {
		return nil
	}
	// The last record is loaded alone after all the others succeeded:
	// CheckLoaded looks for the first and the last, so a load that failed
	// in any range (or was stopped) is never taken for a complete one.
	body := c.InsertCount - 1
	if threads < 1 {
		threads = 1
	}
	if int64(threads) > body {
		threads = int(max(body, 1))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, threads)
	var wg sync.WaitGroup
	per := body / int64(threads)
	for th := 0; th < threads; th++ {
		lo := c.InsertStart + int64(th)*per
		hi := lo + per
		if th == threads-1 {
			hi = c.InsertStart + body
		}
		wg.Add(1)
		go func(th int, lo, hi int64) {
			defer wg.Done()
			if err := w.loadRange(ctx, d, uint64(th), lo, hi, progress); err != nil {
				errs[th] = fmt.Errorf("load keynums %d..%d: %w", lo, hi-1, err)
				cancel()
			}
		}(th, lo, hi)
	}
	wg.Wait()
	if err := joinFirst(errs); err != nil {
		return err
	}
	last := c.InsertStart + body
	if err := w.loadRange(ctx, d, uint64(threads), last, last+1, progress); err != nil {
		return fmt.Errorf("load keynum %d (the last, loaded after the others): %w", last, err)
	}
	return nil
}

// joinFirst joins loader errors, dropping the cancellations the first
// failure caused in the other loaders.
func joinFirst(errs []error) error {
	var out []error
	for _, e := range errs {
		if e != nil && (len(out) == 0 || !errors.Is(e, context.Canceled)) {
			out = append(out, e)
		}
	}
	return errors.Join(out...)
}

func (w *Workload) loadRange(ctx context.Context, d Dialer, stream uint64, lo, hi int64, progress func(int64)) error {
	c := &w.cfg
	conn, err := d.Connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	r := randgen.New(c.Seed+0x9c5b, stream)
	batch := max(1, loadBatchParams/(c.FieldCount+1))
	stmts := map[int]target.Stmt{}
	args := make([]any, 0, batch*(c.FieldCount+1))
	var buf []byte
	for k := lo; k < hi; {
		n := int(min(int64(batch), hi-k))
		st, ok := stmts[n]
		if !ok {
			if st, err = conn.Prepare(ctx, c.insertSQL(n)); err != nil {
				return err
			}
			stmts[n] = st
		}
		args = args[:0]
		for i := 0; i < n; i++ {
			args = append(args, c.KeyName(k+int64(i)))
			for f := 0; f < c.FieldCount; f++ {
				buf = appendValue(buf[:0], r, w.fieldLen(r))
				args = append(args, string(buf))
			}
		}
		if _, err := st.Exec(ctx, args...); err != nil {
			if n > 1 && target.RefusedByProxy(conn, err) {
				// A sharding proxy that cannot route one INSERT to
				// several shards: send the rest one row per statement.
				batch = 1
				continue
			}
			return err
		}
		k += int64(n)
		if progress != nil {
			progress(int64(n))
		}
	}
	return nil
}

// Cleanup drops the table.
func Cleanup(ctx context.Context, conn target.Conn, p Props) error {
	c, err := ParseConfig(p)
	if err != nil {
		return fmt.Errorf("ycsb: %w", err)
	}
	_, err = conn.Exec(ctx, "DROP TABLE IF EXISTS "+c.Table)
	return err
}

// CheckLoaded verifies cheaply that the table exists with fieldcount fields
// and holds the first and last record of [insertstart, insertstart +
// insertcount) under the configured insertorder and zeropadding (two primary
// key lookups). A missing table wraps workload.ErrNotPrepared; a missing
// record wraps workload.ErrScaleMismatch.
func CheckLoaded(ctx context.Context, conn target.Conn, p Props) error {
	c, err := ParseConfig(p)
	if err != nil {
		return fmt.Errorf("ycsb: %w", err)
	}
	if c.InsertCount == 0 {
		return nil
	}
	q := fmt.Sprintf("SELECT YCSB_KEY, %s FROM %s WHERE YCSB_KEY = ?", c.field(c.FieldCount-1), c.Table)
	for _, keynum := range []int64{c.InsertStart, c.InsertStart + c.InsertCount - 1} {
		rows, err := conn.Query(ctx, q, c.KeyName(keynum))
		if err != nil {
			if isMissingTable(err) {
				return fmt.Errorf("%w: table %s does not exist (run load first)", workload.ErrNotPrepared, c.Table)
			}
			return fmt.Errorf("check %s: %w", c.Table, err)
		}
		found := rows.Next()
		err = rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("check %s: %w", c.Table, err)
		}
		if !found {
			order := "hashed"
			if c.Ordered {
				order = "ordered"
			}
			return fmt.Errorf("%w: record %d (key %s) is missing from %s: load with recordcount=%d, insertorder=%s, zeropadding=%d",
				workload.ErrScaleMismatch, keynum, c.KeyName(keynum), c.Table, c.RecordCount, order, c.ZeroPadding)
		}
	}
	return nil
}
