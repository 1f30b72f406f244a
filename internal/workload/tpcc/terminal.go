package tpcc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/randgen"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// Terminal is one emulated TPC-C user (§1.7): a fixed home warehouse, a
// fixed Stock-Level district, its own random source and deck, and its own
// prepared statements on one session. It is used by one goroutine and shares
// nothing mutable with other terminals.
type Terminal struct {
	w    *Workload
	conn target.Conn
	kind target.Kind
	r    *randgen.Rand
	deck *deck

	wID, dID int   // home warehouse; Stock-Level district (clause 2.8.1.1)
	w64      int64 // wID, bound by pointer (argSlots)
	nw       int   // warehouses in use

	// Sharding (Config.Sharding enabled): the home warehouse's shard and,
	// with perfect sharding, the other warehouses of that shard, the only
	// ones remote lines and payments may use.
	sharded bool
	shard   int
	peers   []int

	// fresh is set by Next: the following Exec draws new inputs. A retry
	// (Exec without Next) re-runs the same inputs.
	fresh bool

	ex    []int64 // counter deltas, indexed like ExtraNames
	stmts []target.Stmt

	no   neworder
	noPL perLineNO // ShapePerLine statements
	dlPL perDistrictDL
	pa   payment
	os   orderStatus
	dl   delivery
	sl   stockLevel

	buf []byte // scratch for text fields (C_LAST, C_DATA)

	args argSlots  // the transaction's integer arguments, by pointer
	now  time.Time // the transaction's timestamp argument, by pointer
}

var _ workload.Terminal = (*Terminal)(nil)
var _ workload.Waiter = (*Terminal)(nil)

func newTerminal(ctx context.Context, w *Workload, id int, stream uint64, conn target.Conn) (*Terminal, error) {
	r := randgen.New(w.cfg.Seed, stream)
	t := &Terminal{
		w: w, conn: conn, kind: conn.Kind(), r: r, nw: w.w,
		deck: newDeck(w.deck, r),
		ex:   make([]int64, numExtras),
		buf:  make([]byte, 0, 512),
	}
	t.wID, t.dID = Bind(id, w.w)
	t.w64 = int64(t.wID)
	t.bindShard()
	t.prepareAll(&preparer{t: t})
	return t, nil
}

// prepareAll hands every transaction's fixed statements to p, in op order
// (the statement catalog relies on it).
func (t *Terminal) prepareAll(p *preparer) {
	p.op = OpNewOrder
	t.no.prepare(p)
	if t.w.cfg.Shape == ShapePerLine {
		t.noPL.prepare(p, &t.no)
	}
	p.op = OpPayment
	t.pa.prepare(p)
	p.op = OpOrderStatus
	t.os.prepare(p)
	p.op = OpDelivery
	t.dl.prepare(p)
	if t.w.cfg.Shape == ShapePerLine {
		t.dlPL.prepare(p, &t.dl)
	}
	p.op = OpStockLevel
	t.sl.prepare(p)
}

// preparer hands out the terminal's statements. They are prepared on first
// use (lazyStmt), so a terminal costs only its connection at start: 2048
// terminals start in seconds and keep only the statements their deck deals.
// With rec set it only records the SQL templates and their transaction (the
// statement catalog, statements.go).
type preparer struct {
	t   *Terminal
	op  int
	rec *[]stmtEntry
}

// stmt returns the statement for sql; {table} placeholders and {fu} are
// substituted when it is prepared.
func (p *preparer) stmt(sql string) target.Stmt { return p.times(sql, 1) }

// times is stmt for a statement executed n times per transaction (a
// per-line or per-district statement), so that the catalog ranks it by
// its executions; n = 0 records a statement the configured shape never
// executes (left out of the catalog).
func (p *preparer) times(sql string, n float64) target.Stmt {
	if p.rec != nil {
		*p.rec = append(*p.rec, stmtEntry{sql: sql, op: p.op, share: n})
	}
	return &lazyStmt{t: p.t, sql: sql}
}

// batched is stmt for a statement of the batched shape only.
func (p *preparer) batched(sql string) target.Stmt {
	if p.t.w.cfg.Shape == ShapePerLine {
		return p.times(sql, 0)
	}
	return p.stmt(sql)
}

// lazyStmt prepares its SQL on the terminal's session the first time it is
// executed, then delegates to the prepared statement.
type lazyStmt struct {
	t   *Terminal
	sql string
	st  target.Stmt
}

func (l *lazyStmt) get(ctx context.Context) (target.Stmt, error) {
	if l.st == nil {
		st, err := l.t.prepare(ctx, l.sql)
		if err != nil {
			return nil, err
		}
		l.st = st
	}
	return l.st, nil
}

func (l *lazyStmt) Exec(ctx context.Context, args ...any) (int64, error) {
	st, err := l.get(ctx)
	if err != nil {
		return 0, err
	}
	return st.Exec(ctx, args...)
}

func (l *lazyStmt) Query(ctx context.Context, args ...any) (target.Rows, error) {
	st, err := l.get(ctx)
	if err != nil {
		return nil, err
	}
	return st.Query(ctx, args...)
}

func (l *lazyStmt) QueryRow(ctx context.Context, dest []any, args ...any) error {
	st, err := l.get(ctx)
	if err != nil {
		return err
	}
	return st.QueryRow(ctx, dest, args...)
}

// prepare prepares sql after replacing the {table} placeholders with the
// scheme's names and {fu} with the kind's FOR UPDATE suffix, and records
// the statement for Close.
//
// Statements outside the workload's server-side set (SetStatementBudget)
// run as text: their arguments are encoded client-side and the server
// holds nothing for them.
func (t *Terminal) prepare(ctx context.Context, template string) (target.Stmt, error) {
	sql := t.w.sqlNames(t.kind).Replace(template)
	var s target.Stmt
	var err error
	if t.w.serverSide != nil && !t.w.serverSide[template] {
		s, err = target.PrepareText(ctx, t.conn, sql)
	} else {
		s, err = t.conn.Prepare(ctx, sql)
	}
	if err != nil {
		return nil, err // the target's error names the statement
	}
	t.stmts = append(t.stmts, s)
	return s, nil
}

// lazy returns cache[k], preparing build(k) into it on first use; k is
// the batched statement's row count. Preparing is session setup, not a
// transaction statement, so it is not counted in "statements".
func (t *Terminal) lazy(ctx context.Context, cache []target.Stmt, k int, build func(k int) string) (target.Stmt, error) {
	if s := cache[k]; s != nil {
		return s, nil
	}
	s, err := t.prepare(ctx, build(k))
	if err != nil {
		return nil, err
	}
	cache[k] = s
	return s, nil
}

// Next deals the next card of the terminal's deck (clause 5.2.4.2).
func (t *Terminal) Next() int {
	t.fresh = true
	return t.deck.deal()
}

// Exec runs one attempt of op as one database transaction (Delivery: one
// transaction for all ten districts, see delivery.go). Inputs are drawn on
// the first attempt after Next and reused by retries.
func (t *Terminal) Exec(ctx context.Context, op int) (metrics.Outcome, error) {
	fresh := t.fresh
	t.fresh = false
	t.args.reset()
	switch op {
	case OpNewOrder:
		return t.newOrder(ctx, fresh)
	case OpPayment:
		return t.payment(ctx, fresh)
	case OpOrderStatus:
		return t.orderStatus(ctx, fresh)
	case OpDelivery:
		return t.delivery(ctx, fresh)
	case OpStockLevel:
		return t.stockLevel(ctx, fresh)
	}
	return metrics.Failed, fmt.Errorf("tpcc: unknown op %d", op)
}

// Extras returns the counter deltas since the runner last zeroed them.
func (t *Terminal) Extras() []int64 { return t.ex }

// Close releases the prepared statements (when the driver's Stmt has Close).
func (t *Terminal) Close() {
	for _, s := range t.stmts {
		if c, ok := s.(interface{ Close() error }); ok {
			_ = c.Close()
		}
	}
	t.stmts = nil
}

// Home returns the terminal's home warehouse and Stock-Level district.
func (t *Terminal) Home() (wID, dID int) { return t.wID, t.dID }

// --- round-trip helpers: each counts one statement --------------------------

func (t *Terminal) begin(ctx context.Context, write bool) error {
	t.ex[exStatements]++
	return t.conn.Begin(ctx, write)
}

// beginSnapshot begins a read-only transaction that reads one snapshot
// (target.SnapshotBeginner; Begin where the default isolation does).
func (t *Terminal) beginSnapshot(ctx context.Context) error {
	if sb, ok := t.conn.(target.SnapshotBeginner); ok {
		t.ex[exStatements]++
		return sb.BeginSnapshot(ctx)
	}
	return t.begin(ctx, false)
}

func (t *Terminal) commit(ctx context.Context) error {
	t.ex[exStatements]++
	return t.conn.Commit(ctx)
}

// rollback aborts the open transaction even when ctx is already cancelled.
func (t *Terminal) rollback(ctx context.Context) error {
	t.ex[exStatements]++
	return t.conn.Rollback(context.WithoutCancel(ctx))
}

func (t *Terminal) exec(ctx context.Context, s target.Stmt, args ...any) (int64, error) {
	t.ex[exStatements]++
	return s.Exec(ctx, args...)
}

func (t *Terminal) row(ctx context.Context, s target.Stmt, dest []any, args ...any) error {
	t.ex[exStatements]++
	return s.QueryRow(ctx, dest, args...)
}

func (t *Terminal) query(ctx context.Context, s target.Stmt, args ...any) (target.Rows, error) {
	t.ex[exStatements]++
	return s.Query(ctx, args...)
}

// fail rolls back and returns the error wrapped with the transaction and step.
func (t *Terminal) fail(ctx context.Context, txn, step string, err error) (metrics.Outcome, error) {
	_ = t.rollback(ctx)
	return metrics.Failed, txnErr(txn, step, err)
}

// wrap adds the transaction and step to err (error path only).
func txnErr(txn, step string, err error) error { return fmt.Errorf("%s: %s: %w", txn, step, err) }

// errNoCustomer is returned when a last-name lookup finds nobody (the data
// set is not a TPC-C population).
var errNoCustomer = errors.New("no customer with that last name")

// bindShard sets the home warehouse's shard and, with perfect sharding,
// the other warehouses of that shard (Config.Sharding enabled).
func (t *Terminal) bindShard() {
	if !t.w.cfg.Sharding.Enabled() {
		return
	}
	t.sharded = true
	t.shard = t.w.layout.of[t.wID]
	if t.w.cfg.Sharding.Perfect {
		for _, o := range t.w.layout.peers[t.shard] {
			if o != t.wID {
				t.peers = append(t.peers, o)
			}
		}
	}
}

// canRemote reports whether a remote warehouse exists: W > 1, and with
// perfect sharding another warehouse on the home shard.
func (t *Terminal) canRemote() bool {
	if t.sharded && t.w.cfg.Sharding.Perfect {
		return len(t.peers) > 0
	}
	return t.nw > 1
}

// crossShard reports whether warehouse w is on another shard than home.
func (t *Terminal) crossShard(w int) bool { return t.sharded && t.w.layout.of[w] != t.shard }

// otherWarehouse returns a uniformly random warehouse ≠ home (requires
// canRemote): any of the W, or with perfect sharding one of the home
// shard's.
func (t *Terminal) otherWarehouse() int {
	if len(t.peers) > 0 {
		return t.peers[t.r.Range(0, len(t.peers)-1)]
	}
	x := t.r.Range(1, t.nw-1)
	if x >= t.wID {
		x++
	}
	return x
}

// customerKey draws the customer selection shared by Payment and
// Order-Status (clauses 2.5.1.2, 2.6.1.2): 60 % by last name
// (NURand(255,0,999) with C-run), else by NURand(1023,1,3000) with C_ID's C.
func (t *Terminal) customerKey() (byName bool, last int, cID int) {
	if t.r.Range(1, 100) <= 60 {
		return true, t.r.NURand(255, 0, 999, t.w.cRun), 0
	}
	return false, 0, t.r.NURand(1023, 1, CustomersPerDistrict, t.w.meta.CID)
}

// middleIndex is the 0-based row of the customer to pick among n rows sorted
// by c_first (clause 2.5.2.2): position ⌈n/2⌉, i.e. (n+1)/2 − 1.
func middleIndex(n int) int { return (n+1)/2 - 1 }

// sqlNames returns the replacer that substitutes the scheme's table names
// for {table} placeholders and kind's FOR UPDATE suffix for {fu}; built once
// per workload and kind (all terminals share it; Replacer is safe for
// concurrent use).
func (w *Workload) sqlNames(kind target.Kind) *strings.Replacer {
	w.replOnce.Do(func() {
		n := w.cfg.Names
		w.repl = strings.NewReplacer(
			"{warehouse}", n.Warehouse, "{district}", n.District, "{customer}", n.Customer,
			"{history}", n.History, "{new_order}", n.NewOrder, "{orders}", n.Orders,
			"{order_line}", n.OrderLine, "{item}", n.Item, "{stock}", n.Stock,
			"{fu}", kind.ForUpdate(),
		)
	})
	return w.repl
}
