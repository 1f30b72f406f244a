package ycsb

import (
	"context"
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

// Return codes counted per operation (§3.7 output).
const (
	rcOK = iota
	rcError
	rcNotFound
	numRC
)

var rcNames = []string{"OK", "ERROR", "NOT_FOUND"}

// exScanRecords is the extra counter of records returned by scans, after
// the numOps×numRC return-code counters.
const (
	exScanRecords = numOps * numRC
	numExtras     = exScanRecords + 1
)

// maxKeyRedraws bounds nextKeynum's re-draws of keys beyond the last
// acknowledged insert before it falls back to that key.
const maxKeyRedraws = 10000

// Workload is a configured YCSB core workload. It implements
// workload.Workload, workload.Summarizer and workload.StmtCounter.
type Workload struct {
	cfg          Config
	ops          *randgen.Discrete
	keyShared    randgen.IntGen        // uniform, scrambled zipfian, hotspot
	latest       *randgen.SkewedLatest // requestdistribution=latest (cloned per terminal)
	scanLen      randgen.IntGen        // immutable
	fieldLenZipf *randgen.Zipfian      // fieldlengthdistribution=zipfian (read-only)
	inserts      *ackCounter           // run-phase insert keynums
	seed         uint64
	terminals    atomic.Uint64
}

var (
	_ workload.Workload    = (*Workload)(nil)
	_ workload.Summarizer  = (*Workload)(nil)
	_ workload.StmtCounter = (*Workload)(nil)
)

// New validates p (every problem at once) and builds the generators
// (§3.5). With requestdistribution=latest it precomputes ζ over recordcount
// items, O(recordcount).
func New(p Props) (*Workload, error) {
	c, err := ParseConfig(p)
	if err != nil {
		return nil, fmt.Errorf("ycsb: %w", err)
	}
	w := &Workload{cfg: c, ops: randgen.NewDiscrete(c.Proportions[:]), inserts: newAckCounter(c.RecordCount)}
	lo, hi := c.InsertStart, c.InsertStart+c.InsertCount-1
	switch c.RequestDistribution {
	case "uniform":
		w.keyShared = randgen.Uniform{Min: lo, Max: hi}
	case "zipfian":
		// Expected new keys: a fudge factor so popularity does not shift as
		// inserts grow the key space (CoreWorkload).
		expected := int64(float64(c.OperationCount) * c.Proportions[OpInsert] * 2)
		w.keyShared = randgen.NewScrambledZipfian(c.InsertStart, c.InsertStart+c.InsertCount+expected)
	case "hotspot":
		w.keyShared = randgen.NewHotspot(lo, hi, c.HotspotDataFraction, c.HotspotOpnFraction)
	case "latest":
		w.latest = randgen.NewSkewedLatest(w.inserts.Last)
	}
	if c.ScanLengthDistribution == "zipfian" {
		w.scanLen = randgen.NewZipfian(c.MinScanLength, c.MaxScanLength, randgen.ZipfianConstant)
	} else {
		w.scanLen = randgen.Uniform{Min: c.MinScanLength, Max: c.MaxScanLength}
	}
	w.fieldLenZipf = fieldLenZipfian(c)
	w.seed = c.Seed
	if w.seed == 0 {
		w.seed = uint64(time.Now().UnixNano())
	}
	return w, nil
}

// fieldLenZipfian is the field-length generator of
// fieldlengthdistribution=zipfian (nil for the others), shared by the run
// (New) and the load (Load): values.go draws every field's length from it.
func fieldLenZipfian(c Config) *randgen.Zipfian {
	if c.FieldLengthDist != "zipfian" {
		return nil
	}
	return randgen.NewZipfian(int64(c.MinFieldLength), int64(c.FieldLength), randgen.ZipfianConstant)
}

// Config returns the resolved configuration.
func (w *Workload) Config() Config { return w.cfg }

// Ops names the operations: read, update, insert, scan, read_modify_write.
func (w *Workload) Ops() []string { return append([]string(nil), opNames...) }

// Extras names the return-code counters ("READ.OK", "UPDATE.NOT_FOUND", ...)
// and "SCAN.records".
func (w *Workload) Extras() []string {
	out := make([]string, 0, numExtras)
	for _, op := range opJavaNames {
		for _, rc := range rcNames {
			out = append(out, op+"."+rc)
		}
	}
	return append(out, "SCAN.records")
}

// Inserted returns how many run-phase insert keynums were handed out.
func (w *Workload) Inserted() int64 { return w.inserts.next.Load() - w.cfg.RecordCount }

// NewTerminal prepares the statements the configured mix needs.
func (w *Workload) NewTerminal(ctx context.Context, id, n int, conn target.Conn) (workload.Terminal, error) {
	gen := w.terminals.Add(1)
	t := &terminal{
		w: w, conn: conn, r: randgen.New(w.seed, uint64(id)|gen<<32),
		extras: make([]int64, numExtras),
		keyBuf: make([]byte, 0, 32), valBuf: make([]byte, 0, w.cfg.FieldLength),
		args: make([]any, w.cfg.FieldCount+1),
	}
	if w.latest != nil {
		t.latest = w.latest.Clone()
	}
	c := &w.cfg
	prep := func(sql string) (target.Stmt, error) {
		st, err := conn.Prepare(ctx, sql)
		if err != nil { // the target's error names the statement
			if isMissingTable(err) {
				err = fmt.Errorf("%w: %w", workload.ErrNotPrepared, err)
			}
		}
		return st, err
	}
	var err error
	p := c.Proportions
	if p[OpRead] > 0 || p[OpReadModifyWrite] > 0 {
		if t.read, err = w.fieldStmts(prep, c.readSQL, c.ReadAllFields); err != nil {
			return nil, err
		}
	}
	if p[OpUpdate] > 0 || p[OpReadModifyWrite] > 0 {
		if t.update, err = w.fieldStmts(prep, c.updateSQL, c.WriteAllFields); err != nil {
			return nil, err
		}
	}
	if p[OpScan] > 0 {
		if t.scan, err = w.fieldStmts(prep, c.scanSQL, c.ReadAllFields); err != nil {
			return nil, err
		}
	}
	if p[OpInsert] > 0 {
		if t.insert, err = prep(c.insertSQL(1)); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// fieldStmts prepares the all-fields statement (all=true, index 0) or one
// statement per field.
func (w *Workload) fieldStmts(prep func(string) (target.Stmt, error), sql func(int) string, all bool) ([]target.Stmt, error) {
	if all {
		st, err := prep(sql(-1))
		return []target.Stmt{st}, err
	}
	out := make([]target.Stmt, w.cfg.FieldCount)
	for i := range out {
		st, err := prep(sql(i))
		if err != nil {
			return nil, err
		}
		out[i] = st
	}
	return out, nil
}

// PreparedPerSession is how many server-side statements each session
// prepares for the configured mix (reads, updates and scans all-fields or
// one per field, one insert); the run is refused before it starts when the
// server's cap cannot hold them all.
func (w *Workload) PreparedPerSession() int {
	c := &w.cfg
	p := c.Proportions
	fields := func(all bool) int {
		if all {
			return 1
		}
		return c.FieldCount
	}
	n := 0
	if p[OpRead] > 0 || p[OpReadModifyWrite] > 0 {
		n += fields(c.ReadAllFields)
	}
	if p[OpUpdate] > 0 || p[OpReadModifyWrite] > 0 {
		n += fields(c.WriteAllFields)
	}
	if p[OpScan] > 0 {
		n += fields(c.ReadAllFields)
	}
	if p[OpInsert] > 0 {
		n++
	}
	return n
}
