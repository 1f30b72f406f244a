package sysbench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"benchpress/internal/load"
	"benchpress/internal/partition"
	"benchpress/internal/randgen"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// Dialer opens sessions (a *target.Connector satisfies it).
type Dialer = load.Dialer

// Extra counter indexes (Workload.Extras).
const (
	exReads   = iota // statements that returned a result set (§2.8)
	exWrites         // statements that affected > 0 rows
	exOthers         // everything else: BEGIN, COMMIT, writes that matched nothing
	exIgnored        // events restarted after an ignorable error (sysbench "ignored errors")
	numExtras
)

var extraNames = []string{"reads", "writes", "others", "ignored_errors"}

// maxRestarts bounds how often one Exec restarts an event after a duplicate
// key on the re-insert of a delete/insert pair (§2.7).
const maxRestarts = 100

// Workload is one configured sysbench test. It implements workload.Workload,
// workload.Summarizer, workload.StmtCounter and partition.Checker.
type Workload struct {
	test      string
	opts      Options
	plan      []step
	kinds     []stmtKind
	dist      *randgen.SBDist
	seed      uint64
	perEvent  int
	terminals atomic.Uint64 // NewTerminal calls: decorrelates streams after reconnects
	// uniqueIDs: the test draws its ids from sysbench.rand.unique()
	// (oltp_insert with auto_inc off), with uniqueOffset from the seed and
	// indexes from unique, the count drawn per global terminal id (kept
	// across reconnects; see uniqueCounter).
	uniqueIDs    bool
	uniqueOffset uint32
	uniqueMu     sync.Mutex
	unique       map[int]*atomic.Uint64
}

var (
	_ workload.Workload    = (*Workload)(nil)
	_ workload.Summarizer  = (*Workload)(nil)
	_ workload.StmtCounter = (*Workload)(nil)
)

// New validates test and o (all problems at once) and returns the workload.
func New(test string, o Options) (*Workload, error) {
	var errs []error
	if err := o.Validate(); err != nil {
		errs = append(errs, err)
	}
	plan, err := buildPlan(test, &o)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("sysbench: %w", errors.Join(errs...))
	}
	dist, _ := randgen.NewSBDist(o.RandType, o.distParams())
	seed := o.Seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	w := &Workload{
		test: test, opts: o, plan: plan, kinds: stmtKinds(plan, o.AutoInc), dist: dist,
		seed: seed, perEvent: statementsPerEvent(plan),
		uniqueOffset: randgen.SBUniqueOffset(uint32(seed ^ seed>>32)),
	}
	for _, s := range plan {
		w.uniqueIDs = w.uniqueIDs || (s.kind == stInsert && !o.AutoInc)
	}
	return w, nil
}

var _ partition.Checker = (*Workload)(nil)

// Partitionable implements partition.Checker. oltp_insert with auto_inc off
// inserts ids from sysbench.rand.unique(), a permutation of indexes shifted
// by an offset taken from the seed; terminal id of n draws the indexes id,
// id+n, id+2n... so that the terminals of all partitions draw disjoint ones
// when every partition has the same offset, i.e. the same --rand-seed. With
// --rand-seed 0 each process takes its seed from its own clock and the
// partitions could insert the same ids: refused.
func (w *Workload) Partitionable() error {
	if w.uniqueIDs && w.opts.Seed == 0 {
		return errors.New("oltp_insert with --auto-inc off is partitioned only with a --rand-seed other than 0 (the same in every partition): with 0 each process takes its seed from its own clock and the partitions could insert the same ids")
	}
	return nil
}

// uniqueCounter returns how many unique ids terminal id has drawn, shared
// by every terminal NewTerminal makes for that id (a reconnect goes on
// where the lost session stopped).
func (w *Workload) uniqueCounter(id int) *atomic.Uint64 {
	w.uniqueMu.Lock()
	defer w.uniqueMu.Unlock()
	if w.unique == nil {
		w.unique = map[int]*atomic.Uint64{}
	}
	c := w.unique[id]
	if c == nil {
		c = new(atomic.Uint64)
		w.unique[id] = c
	}
	return c
}

// Test returns the test name.
func (w *Workload) Test() string { return w.test }

// Options returns the resolved options.
func (w *Workload) Options() Options { return w.opts }

// StatementsPerEvent is the number of queries a successful event sends
// (e.g. 20 for oltp_read_write, 18 with SkipTrx, 1 for oltp_point_select).
func (w *Workload) StatementsPerEvent() int { return w.perEvent }

// Ops names the single operation: the event, named after the test.
func (w *Workload) Ops() []string { return []string{w.test} }

// Extras names the query classes: reads, writes, others (§2.8) and
// ignored_errors.
func (w *Workload) Extras() []string { return append([]string(nil), extraNames...) }

// NewTerminal prepares the statements the test needs on every table.
func (w *Workload) NewTerminal(ctx context.Context, id, n int, conn target.Conn) (workload.Terminal, error) {
	gen := w.terminals.Add(1)
	t := &terminal{
		w: w, conn: conn,
		r:      randgen.New(w.seed, uint64(id)|gen<<32),
		stmts:  make([][numStmtKinds]target.Stmt, w.opts.Tables),
		extras: make([]int64, numExtras),
		buf:    make([]byte, 0, 128),
	}
	if w.uniqueIDs {
		t.uniqueN, t.uniqueID = uint64(max(n, id+1)), uint64(id)
		t.unique = w.uniqueCounter(id)
	}
	for tbl := 1; tbl <= w.opts.Tables; tbl++ {
		for _, k := range w.kinds {
			st, err := conn.Prepare(ctx, stmtSQL(k, tbl))
			if err != nil {
				return nil, wrapMissing(err) // the target's error names the statement
			}
			t.stmts[tbl-1][k] = st
		}
	}
	return t, nil
}

// wrapMissing turns "table does not exist" into workload.ErrNotPrepared.
func wrapMissing(err error) error {
	if isMissingTable(err) {
		return fmt.Errorf("%w: %w", workload.ErrNotPrepared, err)
	}
	return err
}

// PreparedPerSession is how many server-side statements each session
// prepares: every statement kind of the test on every table. The run is
// refused before it starts when the server's cap cannot hold them all.
func (w *Workload) PreparedPerSession() int { return len(w.kinds) * w.opts.Tables }
