package sysbench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/randgen"
	"benchpress/internal/target"
)

// terminal is one sysbench thread bound to one connection. It allocates
// nothing per event except the c/pad strings it sends: integer arguments go
// to the statements as pointers into ints (an int above 255 stored in an
// interface is a heap allocation, runtime.convT64; a pointer is not), which
// every backend dereferences (the lean encoders, pgx and database/sql).
type terminal struct {
	w      *Workload
	conn   target.Conn
	r      *randgen.Rand
	stmts  [][numStmtKinds]target.Stmt // [table-1][kind]
	extras []int64
	inTx   bool
	// pairInsert is set while the re-insert of a delete/insert pair runs: a
	// duplicate key there is ignorable (sysbench's pgsql driver treats 23505
	// like a deadlock and restarts the event, §2.7).
	pairInsert bool
	buf        []byte
	ints       [2]int64 // the integer arguments of the statement being sent (intArg)
	a1         [1]any
	a2         [2]any
	a3         [3]any
	a4         [4]any

	// unique counts the ids this terminal (global id uniqueID of uniqueN)
	// drew from sysbench.rand.unique(); nil unless the test draws any
	// (Workload.uniqueIDs).
	unique            *atomic.Uint64
	uniqueID, uniqueN uint64
}

// Next returns the only op.
func (t *terminal) Next() int { return 0 }

// Extras returns and keeps accumulating the query-class deltas; the runner
// zeroes them after adding.
func (t *terminal) Extras() []int64 { return t.extras }

// Close is a no-op: statements die with the connection the runner closes.
func (t *terminal) Close() {}

// Exec runs one event. On error the open transaction (also one whose COMMIT
// failed) is rolled back and the error returned for the runner to classify
// and, for deadlocks, lock-wait timeouts and serialization failures, retry
// (sysbench's ignore list, §2.7).
// A duplicate key on the re-insert of a delete/insert pair restarts the event
// here, counted in ignored_errors, like sysbench's pgsql driver.
func (t *terminal) Exec(ctx context.Context, _ int) (metrics.Outcome, error) {
	for restarts := 0; ; restarts++ {
		err := t.event(ctx)
		if err == nil {
			return metrics.OK, nil
		}
		if t.inTx {
			// Roll back even when ctx was cancelled (end of run): an open
			// transaction would keep its locks on a pooled session.
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			_ = t.conn.Rollback(rctx)
			cancel()
			t.inTx = false
		}
		pair := t.pairInsert
		t.pairInsert = false
		if !pair || restarts >= maxRestarts || ctx.Err() != nil || target.Classify(err) != target.ClassConstraint {
			return metrics.Failed, err
		}
		t.extras[exIgnored]++
	}
}

// event runs the plan once (reference §2.5, tables and ids per §2.6).
func (t *terminal) event(ctx context.Context) error {
	o := &t.w.opts
	for _, s := range t.w.plan {
		var err error
		switch s.kind {
		case stBegin:
			if err = t.conn.Begin(ctx, s.write); err == nil {
				t.inTx = true
				t.extras[exOthers]++
			}
		case stCommit:
			// inTx stays set until COMMIT succeeds: after a failed one Exec
			// rolls back, as target.Conn asks (SQLite keeps the transaction
			// and its write lock after SQLITE_BUSY on COMMIT; on MySQL and
			// PostgreSQL the ROLLBACK finds it already ended).
			if err = t.conn.Commit(ctx); err == nil {
				t.inTx = false
				t.extras[exOthers]++
			}
		case stPoint:
			st := t.table()
			for i := 0; i < s.n && err == nil; i++ {
				t.a1[0] = t.intArg(0, int64(t.id()))
				err = t.query(ctx, st[skPoint], t.a1[:])
			}
		case stSimple, stSum, stOrder, stDistinct:
			st := t.table()[rangeStmt[s.kind]]
			for i := 0; i < s.n && err == nil; i++ {
				id := t.id()
				t.a2[0], t.a2[1] = t.intArg(0, int64(id)), t.intArg(1, int64(id+o.RangeSize-1))
				err = t.query(ctx, st, t.a2[:])
			}
		case stIndexUpdate:
			st := t.table()
			for i := 0; i < s.n && err == nil; i++ {
				t.a1[0] = t.intArg(0, int64(t.id()))
				err = t.exec(ctx, st[skIndexUpdate], t.a1[:])
			}
		case stNonIndexUpdate:
			st := t.table()
			for i := 0; i < s.n && err == nil; i++ {
				t.a2[0] = t.str(cTemplate)
				t.a2[1] = t.intArg(0, int64(t.id()))
				err = t.exec(ctx, st[skNonIndexUpdate], t.a2[:])
			}
		case stDeleteInsert:
			st := t.table()
			for i := 0; i < s.n && err == nil; i++ {
				id, k := t.id(), t.id()
				t.a1[0] = t.intArg(0, int64(id))
				if err = t.exec(ctx, st[skDelete], t.a1[:]); err != nil {
					return fmt.Errorf("%s: delete: %w", stepNames[s.kind], err)
				}
				t.a4[0], t.a4[1], t.a4[2], t.a4[3] = t.intArg(0, int64(id)), t.intArg(1, int64(k)), t.str(cTemplate), t.str(padTemplate)
				t.pairInsert = true
				if err = t.exec(ctx, st[skInsert], t.a4[:]); err != nil {
					return fmt.Errorf("%s: insert: %w", stepNames[s.kind], err)
				}
				t.pairInsert = false
			}
		case stDelete:
			st := t.table()
			t.a1[0] = t.intArg(0, int64(t.id()))
			err = t.exec(ctx, st[skDelete], t.a1[:])
		case stInsert:
			st := t.table()
			k := t.id()
			if o.AutoInc {
				t.a3[0], t.a3[1], t.a3[2] = t.intArg(0, int64(k)), t.str(cTemplate), t.str(padTemplate)
				err = t.exec(ctx, st[skInsertNew], t.a3[:])
			} else if idx, ok := t.uniqueIndex(); !ok {
				err = errUniqueSpent
			} else {
				// sysbench.rand.unique() − 2^31: unique per run over all terminals
				// of all partitions (uniqueIndex).
				u := randgen.SBUnique(idx, t.w.uniqueOffset)
				t.a4[0], t.a4[1], t.a4[2], t.a4[3] = t.intArg(0, int64(u)-1<<31), t.intArg(1, int64(k)), t.str(cTemplate), t.str(padTemplate)
				err = t.exec(ctx, st[skInsert], t.a4[:])
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", stepNames[s.kind], err)
		}
	}
	return nil
}

// errUniqueSpent: a terminal has drawn every unique id index of its share.
var errUniqueSpent = errors.New("this thread has used up its share of sysbench.rand.unique()'s 2^32 ids (every thread draws every n-th index of n threads): prepare the tables again or use --auto-inc on")

// uniqueIndex returns the next sysbench.rand.unique() index of the
// terminal: its k-th draw is k x n + id (global id of n terminals, in all
// partitions), so no two terminals of the run, in any process, draw the
// same index and a run inserts no id twice. ok is false once the index no
// longer fits in 32 bits.
func (t *terminal) uniqueIndex() (idx uint32, ok bool) {
	v := (t.unique.Add(1)-1)*t.uniqueN + t.uniqueID
	return uint32(v), v <= math.MaxUint32
}

// stepNames name the statement steps in error messages ("point select:
// Error 1205 ...").
var stepNames = [...]string{
	stBegin: "begin", stCommit: "commit", stPoint: "point select", stSimple: "simple range",
	stSum: "sum range", stOrder: "order range", stDistinct: "distinct range", stIndexUpdate: "index update",
	stNonIndexUpdate: "non-index update", stDeleteInsert: "delete/insert", stDelete: "delete", stInsert: "insert",
}

var rangeStmt = [...]stmtKind{stSimple: skSimple, stSum: skSum, stOrder: skOrder, stDistinct: skDistinct}

// table draws the table of a statement group: sysbench.rand.uniform(1, tables).
func (t *terminal) table() *[numStmtKinds]target.Stmt {
	return &t.stmts[randgen.SBUniform(t.r, 1, t.w.opts.Tables)-1]
}

// intArg stores v in integer slot i and returns the slot as a statement
// argument (*int64). A statement's integer arguments use distinct slots;
// the next statement may reuse them (the backends read arguments before
// Query or Exec returns).
func (t *terminal) intArg(i int, v int64) any {
	t.ints[i] = v
	return &t.ints[i]
}

// id is sysbench.rand.default(1, table_size).
func (t *terminal) id() int { return t.w.dist.Default(t.r, 1, t.w.opts.TableSize) }

func (t *terminal) str(template string) string {
	t.buf = t.r.AppendSBString(t.buf[:0], template)
	return string(t.buf)
}

// query runs a SELECT and drains its rows; it counts as a read (§2.8).
func (t *terminal) query(ctx context.Context, st target.Stmt, args []any) error {
	rows, err := st.Query(ctx, args...)
	if err != nil {
		return err
	}
	for rows.Next() {
	}
	err = rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		t.extras[exReads]++
	}
	return err
}

// exec runs a write; it counts as a write when it affected rows, else as
// other (§2.8).
func (t *terminal) exec(ctx context.Context, st target.Stmt, args []any) error {
	n, err := st.Exec(ctx, args...)
	if err != nil {
		return err
	}
	if n > 0 {
		t.extras[exWrites]++
	} else {
		t.extras[exOthers]++
	}
	return nil
}

// isMissingTable recognises "table does not exist" on the three drivers
// (MySQL 1146, PostgreSQL 42P01, SQLite "no such table").
func isMissingTable(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "1146") || strings.Contains(s, "42P01") ||
		strings.Contains(s, "no such table") || strings.Contains(s, "doesn't exist")
}
