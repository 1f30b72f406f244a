package sysbench

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"benchpress/internal/load"
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
// workload.Summarizer and workload.StmtCounter.
type Workload struct {
	test      string
	opts      Options
	plan      []step
	kinds     []stmtKind
	dist      *randgen.SBDist
	seed      uint64
	perEvent  int
	terminals atomic.Uint64 // NewTerminal calls: decorrelates streams after reconnects
	// uniqueIdx feeds sysbench.rand.unique() for oltp_insert with auto_inc off.
	uniqueIdx    atomic.Uint32
	uniqueOffset uint32
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
	return w, nil
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
