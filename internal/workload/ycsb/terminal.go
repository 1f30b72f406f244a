package ycsb

import (
	"context"
	"fmt"
	"strings"

	"benchpress/internal/metrics"
	"benchpress/internal/randgen"
	"benchpress/internal/target"
)

// terminal is one YCSB client thread bound to one connection.
type terminal struct {
	w      *Workload
	conn   target.Conn
	r      *randgen.Rand
	latest *randgen.SkewedLatest // own zipfian state for requestdistribution=latest
	read   []target.Stmt         // [0] all fields, or one per field
	update []target.Stmt
	scan   []target.Stmt
	insert target.Stmt
	extras []int64
	keyBuf []byte
	valBuf []byte
	args   []any
}

func (t *terminal) Next() int       { return t.w.ops.Next(t.r) }
func (t *terminal) Extras() []int64 { return t.extras }
func (t *terminal) Close()          {}

// Exec runs one operation (§3.6). YCSB operations are single statements in
// autocommit; there is no transaction to roll back. A read that finds no
// row, or an update that matches none, counts NOT_FOUND and fails
// (errNotFound): YCSB's DBWrapper files every status that is not OK under
// <OP>-FAILED, and a key the chooser drew was loaded or acknowledged, so
// a missing row is a broken data set or a lost insert, not a result.
func (t *terminal) Exec(ctx context.Context, op int) (metrics.Outcome, error) {
	var rc int
	var err error
	var key string
	switch op {
	case OpRead:
		key = t.nextKey()
		rc, err = t.doRead(ctx, key)
	case OpUpdate:
		key = t.nextKey()
		rc, err = t.doUpdate(ctx, key)
	case OpInsert:
		rc, err = t.doInsert(ctx)
	case OpScan:
		rc, err = t.doScan(ctx)
	case OpReadModifyWrite:
		key = t.nextKey()
		rc, err = t.doRead(ctx, key)
		t.count(OpRead, rc, err)
		if err != nil {
			err = fmt.Errorf("read: %w", err) // which of the two statements failed
		} else {
			urc, uerr := t.doUpdate(ctx, key)
			t.count(OpUpdate, urc, uerr)
			if rc == rcOK {
				rc = urc
			}
			if uerr != nil {
				err = fmt.Errorf("update: %w", uerr)
			}
		}
	}
	t.count(op, rc, err)
	if err == nil && rc == rcNotFound {
		err = &errNotFound{op: opNames[op], key: key}
	}
	if err != nil {
		return metrics.Failed, err
	}
	return metrics.OK, nil
}

// errNotFound is a read or update of a key with no row (YCSB's NOT_FOUND).
type errNotFound struct{ op, key string }

func (e *errNotFound) Error() string {
	return fmt.Sprintf("%s: no row with key %s (NOT_FOUND: the data set lacks a loaded or acknowledged key)", e.op, e.key)
}

func (t *terminal) count(op, rc int, err error) {
	if err != nil {
		rc = rcError
	}
	t.extras[op*numRC+rc]++
}

// nextKey is CoreWorkload.nextKeynum + buildKeyName: draw from the key
// chooser, re-drawing keys beyond the last acknowledged insert (§3.5).
func (t *terminal) nextKey() string {
	last := t.w.inserts.Last()
	var k int64
	for i := 0; ; i++ {
		if t.latest != nil {
			k = t.latest.Next(t.r)
		} else {
			k = t.w.keyShared.Next(t.r)
		}
		if k <= last {
			break
		}
		if i == maxKeyRedraws {
			k = last
			break
		}
	}
	t.keyBuf = appendKey(t.keyBuf[:0], k, t.w.cfg.Ordered, t.w.cfg.ZeroPadding)
	return string(t.keyBuf)
}

func (t *terminal) value() string {
	t.valBuf = appendValue(t.valBuf[:0], t.r, t.w.fieldLen(t.r))
	return string(t.valBuf)
}

// pick returns the statement for all fields, or for one random field.
func (t *terminal) pick(stmts []target.Stmt) target.Stmt {
	if len(stmts) == 1 {
		return stmts[0]
	}
	return stmts[t.r.IntN(len(stmts))]
}

func (t *terminal) doRead(ctx context.Context, key string) (int, error) {
	t.args[0] = key
	n, err := drain(ctx, t.pick(t.read), t.args[:1])
	if err != nil {
		return rcError, err
	}
	if n == 0 {
		return rcNotFound, nil
	}
	return rcOK, nil
}

func (t *terminal) doUpdate(ctx context.Context, key string) (int, error) {
	var st target.Stmt
	var args []any
	if len(t.update) == 1 {
		st = t.update[0]
		for i := 0; i < t.w.cfg.FieldCount; i++ {
			t.args[i] = t.value()
		}
		t.args[t.w.cfg.FieldCount] = key
		args = t.args
	} else {
		st = t.pick(t.update)
		t.args[0], t.args[1] = t.value(), key
		args = t.args[:2]
	}
	n, err := st.Exec(ctx, args...)
	if err != nil {
		return rcError, err
	}
	if n == 0 {
		return rcNotFound, nil
	}
	return rcOK, nil
}

// doInsert inserts the next keynum of the transaction insert sequence and
// acknowledges it afterwards, also when the insert failed (CoreWorkload).
func (t *terminal) doInsert(ctx context.Context) (int, error) {
	keynum := t.w.inserts.Next()
	t.keyBuf = appendKey(t.keyBuf[:0], keynum, t.w.cfg.Ordered, t.w.cfg.ZeroPadding)
	t.args[0] = string(t.keyBuf)
	for i := 1; i <= t.w.cfg.FieldCount; i++ {
		t.args[i] = t.value()
	}
	_, err := t.insert.Exec(ctx, t.args...)
	if aerr := t.w.inserts.Ack(keynum); err == nil {
		err = aerr
	}
	if err != nil {
		return rcError, err
	}
	return rcOK, nil
}

func (t *terminal) doScan(ctx context.Context) (int, error) {
	t.args[0] = t.nextKey()
	t.args[1] = t.w.scanLen.Next(t.r)
	n, err := drain(ctx, t.pick(t.scan), t.args[:2])
	if err != nil {
		return rcError, err
	}
	t.extras[exScanRecords] += n
	return rcOK, nil
}

// drain runs a query and consumes its rows, returning how many there were.
func drain(ctx context.Context, st target.Stmt, args []any) (int64, error) {
	rows, err := st.Query(ctx, args...)
	if err != nil {
		return 0, err
	}
	var n int64
	for rows.Next() {
		n++
	}
	err = rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// isMissingTable recognises "table does not exist" on the three drivers.
func isMissingTable(err error) bool {
	s := err.Error()
	return strings.Contains(s, "1146") || strings.Contains(s, "42P01") ||
		strings.Contains(s, "no such table") || strings.Contains(s, "doesn't exist")
}
