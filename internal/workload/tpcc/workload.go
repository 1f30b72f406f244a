package tpcc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// Config is the run-time configuration of the TPC-C workload.
type Config struct {
	// Warehouses is the number of warehouses the terminals use (W); 0 means
	// all loaded warehouses. It must not exceed the loaded count.
	Warehouses int
	// Mix holds the deck weights per op id (clause 5.2.3; DefaultMix).
	Mix [NumOps]int
	// Wait enables keying and think times (clause 5.2.5); it only affects
	// the efficiency figure here, the runner applies the waits.
	Wait bool
	// Names are the physical table names.
	Names Names
	// Seed makes every terminal's random stream and C-run reproducible.
	Seed uint64
	// Shape is the statement shape of New-Order and Delivery ("" is
	// ShapeBatched); ShapePerLine for proxies that cannot route the
	// batched statements.
	Shape TxnShape
	// Sharding describes the shards of a sharded deployment (off with
	// Shards < 2): placement, perfect sharding, cross-shard counting.
	Sharding Sharding
}

// Extra counter indexes (Workload.Extras order), reference §1.9 audit.
const (
	exNewOrderLines = iota
	exNewOrderRemoteLines
	exPaymentRemote
	exPaymentByName
	exOrderStatusByName
	exDeliverySkipped
	exStatements
	exCrossShardNewOrder
	exCrossShardPayment
	numExtras
)

// ExtraNames are the workload's audit counters, indexed like Terminal.Extras.
// All but "statements" count completed transactions only (committed, or the
// New-Order spec rollback); "statements" counts every round trip sent,
// including BEGIN/COMMIT/ROLLBACK and failed attempts.
var ExtraNames = []string{
	"new_order_lines", "new_order_remote_lines", "payment_remote", "payment_by_name",
	"order_status_by_name", "delivery_skipped_districts", "statements",
	"cross_shard_new_order", "cross_shard_payment",
}

// Workload is a configured TPC-C run. It holds no mutable state shared by
// terminals on the hot path; NewTerminal may be called concurrently.
type Workload struct {
	cfg     Config
	meta    Meta
	w       int // warehouses in use
	deck    []int8
	cRun    int      // C for C_LAST at run time (clause 2.1.6.1)
	created sync.Map // terminal id -> *atomic.Uint64: times created

	layout shardLayout // with cfg.Sharding enabled

	replOnce sync.Once
	repl     *strings.Replacer // table names and FOR UPDATE; one target kind per workload

	// serverSide holds the SQL templates prepared server-side; nil means
	// all of them (SetStatementBudget). Set before terminals are made.
	serverSide map[string]bool
}

var _ workload.Workload = (*Workload)(nil)
var _ workload.Summarizer = (*Workload)(nil)
var _ workload.StmtCounter = (*Workload)(nil)

// New validates cfg against the loaded data described by meta and returns
// the workload. All problems are reported at once.
func New(cfg Config, meta Meta) (*Workload, error) {
	var errs []error
	errs = append(errs, cfg.Validate()...)
	w := cfg.Warehouses
	if w == 0 {
		w = meta.Warehouses
	}
	if meta.Warehouses < 1 {
		errs = append(errs, fmt.Errorf("%w: no warehouses recorded in the metadata", workload.ErrNotPrepared))
	} else if w > meta.Warehouses {
		errs = append(errs, fmt.Errorf("%w: --warehouses %d but only %d loaded", workload.ErrScaleMismatch, w, meta.Warehouses))
	}
	if cfg.Names.Scheme != "" && meta.Scheme != "" && cfg.Names.Scheme != meta.Scheme {
		errs = append(errs, fmt.Errorf("%w: --names %s but the data was loaded with %s", workload.ErrSchemeMismatch, cfg.Names.Scheme, meta.Scheme))
	}
	if meta.CLoadLast < 0 || meta.CLoadLast > 255 || meta.CID < 0 || meta.CID > 1023 || meta.COLIID < 0 || meta.COLIID > 8191 {
		errs = append(errs, fmt.Errorf("%w: NURand constants out of range (C_LAST %d, C_ID %d, OL_I_ID %d)",
			workload.ErrNotPrepared, meta.CLoadLast, meta.CID, meta.COLIID))
	}
	errs = append(errs, cfg.Sharding.Validate(w)...)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	wl := &Workload{
		cfg:  cfg,
		meta: meta,
		w:    w,
		deck: buildDeck(cfg.Mix),
		cRun: ChooseCRun(meta.CLoadLast, cfg.Seed),
	}
	if cfg.Sharding.Enabled() {
		wl.layout = newShardLayout(cfg.Sharding, w)
	}
	return wl, nil
}

// Validate returns every problem with the configuration (mix weights
// non-negative with a positive sum, warehouses non-negative, table names set).
func (c Config) Validate() []error {
	var errs []error
	if c.Warehouses < 0 {
		errs = append(errs, fmt.Errorf("warehouses must not be negative (got %d)", c.Warehouses))
	}
	sum := 0
	for i, m := range c.Mix {
		if m < 0 {
			errs = append(errs, fmt.Errorf("mix weight of %s must not be negative (got %d)", OpNames[i], m))
		}
		sum += m
	}
	if sum <= 0 {
		errs = append(errs, errors.New("mix weights must sum to more than 0"))
	}
	if c.Names.Warehouse == "" || c.Names.Stock == "" {
		errs = append(errs, errors.New("table names are not set (choose a --names scheme)"))
	}
	return errs
}

// MixWarnings lists where the mix is below clause 5.2.3's minimums
// (Payment ≥ 43 %, Order-Status, Delivery, Stock-Level ≥ 4 % each). The run
// is still allowed; the CLI prints the warnings.
func (c Config) MixWarnings() []string {
	sum := 0
	for _, m := range c.Mix {
		sum += m
	}
	if sum <= 0 {
		return nil
	}
	mins := [NumOps]float64{OpPayment: 43, OpOrderStatus: 4, OpDelivery: 4, OpStockLevel: 4}
	var out []string
	for op, min := range mins {
		if min == 0 {
			continue
		}
		pct := 100 * float64(c.Mix[op]) / float64(sum)
		if pct < min {
			out = append(out, fmt.Sprintf("%s is %.2f%% of the mix, below the TPC-C minimum of %g%% (clause 5.2.3)", OpNames[op], pct, min))
		}
	}
	return out
}

// ParseMix parses "45,43,4,4,4" (weights in op order: new_order, payment,
// order_status, delivery, stock_level) or "new_order=45,payment=43,..."
// (names may use '-' for '_'; unnamed ops get 0). Weights are non-negative
// integers with a positive sum.
func ParseMix(s string) ([NumOps]int, error) {
	var mix [NumOps]int
	s = strings.TrimSpace(s)
	if s == "" {
		return mix, errors.New("empty mix")
	}
	parts := strings.Split(s, ",")
	named := strings.Contains(s, "=")
	if !named && len(parts) != NumOps {
		return mix, fmt.Errorf("mix %q: want %d comma-separated weights (%s) or name=weight pairs", s, NumOps, strings.Join(OpNames, ","))
	}
	var seen [NumOps]bool
	for i, p := range parts {
		p = strings.TrimSpace(p)
		op := i
		val := p
		if named {
			name, v, ok := strings.Cut(p, "=")
			if !ok {
				return mix, fmt.Errorf("mix %q: %q is not name=weight", s, p)
			}
			op = opIndex(name)
			if op < 0 {
				return mix, fmt.Errorf("mix %q: unknown transaction %q (valid: %s)", s, strings.TrimSpace(name), strings.Join(OpNames, ", "))
			}
			if seen[op] {
				return mix, fmt.Errorf("mix %q: %s given twice", s, OpNames[op])
			}
			seen[op] = true
			val = strings.TrimSpace(v)
		}
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return mix, fmt.Errorf("mix %q: weight %q of %s is not a non-negative integer", s, val, OpNames[op])
		}
		mix[op] = n
	}
	sum := 0
	for _, m := range mix {
		sum += m
	}
	if sum <= 0 {
		return mix, fmt.Errorf("mix %q: weights must sum to more than 0", s)
	}
	return mix, nil
}

func opIndex(name string) int {
	name = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(name), "-", "_"))
	for i, n := range OpNames {
		if n == name || strings.ReplaceAll(n, "_", "") == name {
			return i
		}
	}
	return -1
}

// Ops names the five transactions (OpNames).
func (w *Workload) Ops() []string { return OpNames }

// Extras names the audit counters (ExtraNames).
func (w *Workload) Extras() []string { return ExtraNames }

// Warehouses is the number of warehouses the terminals use.
func (w *Workload) Warehouses() int { return w.w }

// CRun is the run-time C for C_LAST (clause 2.1.6.1), shared by all terminals.
func (w *Workload) CRun() int { return w.cRun }

// NewTerminal binds terminal id of n to its home warehouse and district
// (§1.7) and prepares its statements on conn.
func (w *Workload) NewTerminal(ctx context.Context, id, n int, conn target.Conn) (workload.Terminal, error) {
	c, _ := w.created.LoadOrStore(id, new(atomic.Uint64))
	stream := uint64(id)
	// Re-created after a reconnect: a fresh stream. Counted per id, so a
	// partition that creates only some of the run's ids detects it too.
	if k := c.(*atomic.Uint64).Add(1) - 1; k > 0 {
		stream ^= (uint64(n) + k) << 32
	}
	return newTerminal(ctx, w, id, stream, conn)
}

// LongRoundTrips declares TPC-C's round trips long (workload.LongRoundTrips):
// they carry enough server work (multi-row inserts, updates, joins) that a
// yield before a blocking wait, when the terminals outnumber the load
// machine's CPUs, costs no latency. Measured on MariaDB, 2 vCPUs
// shared with the server, 3 interleaved rounds at 8, 32 and 64 terminals
// (docs/benchmarks.md, "2026-11-26 (15:00)"): in every pair of rounds tpmC
// +4 to +22 %, client CPU per transaction -4 to -39 %, p99 lower or equal;
// at 128 terminals even. Its reads also wait for a reply slower than
// sockio.ReadSlice parked in the poller: at 128 MariaDB terminals client
// CPU per transaction -28 to -40 % ("2026-11-26 (18:00)").
func (w *Workload) LongRoundTrips() bool { return true }

// ConcurrentTerminals tells the runner that NewTerminal may be called
// concurrently: a terminal's random stream depends only on its id.
func (w *Workload) ConcurrentTerminals() bool { return true }

// Bind returns terminal id's home warehouse and Stock-Level district for W
// warehouses (§1.7): terminals are spread evenly, terminal i gets warehouse
// i%W+1, and district (i/W)%10+1, unique within its warehouse while there
// are at most 10 terminals per warehouse. Any number of terminals is allowed.
func Bind(id, warehouses int) (wID, dID int) {
	return id%warehouses + 1, (id/warehouses)%DistrictsPerWarehouse + 1
}
