package load

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"benchpress/internal/target"
)

// Dialer opens sessions; target's Connector satisfies it.
type Dialer interface {
	Connect(ctx context.Context) (target.Conn, error)
}

// Session is one worker's connection with a cache of prepared statements
// (statements live as long as the connection, so each SQL text is prepared
// once per session, not once per unit).
type Session struct {
	Conn  target.Conn
	stmts map[string]target.Stmt
	bulk  *bulkState // load method and fallback state shared by a load's sessions
}

// NewSession wraps conn.
func NewSession(conn target.Conn) *Session {
	return &Session{Conn: conn, stmts: map[string]target.Stmt{}}
}

// Prepare returns the session's prepared statement for sql, preparing it on
// first use.
func (s *Session) Prepare(ctx context.Context, sql string) (target.Stmt, error) {
	if st, ok := s.stmts[sql]; ok {
		return st, nil
	}
	st, err := s.Conn.Prepare(ctx, sql)
	if err != nil {
		return nil, err
	}
	s.stmts[sql] = st
	return st, nil
}

// Unit is one independently loadable piece of a data set, e.g. one table for
// a range of warehouses. Run writes its rows inside the transaction the
// loader opened and reports them to c; it must not commit.
type Unit struct {
	Key     string // unique, stable name, e.g. "unit:stock:1-1"
	Table   string // table reported in Progress
	EstRows int64  // expected rows, for progress and ETA
	Run     func(ctx context.Context, s *Session, c *Counter) (rows int64, err error)
}

// Counter accumulates the rows and bytes a unit has written so far; it is
// safe for concurrent use.
type Counter struct {
	rows, bytes atomic.Int64
}

// Add records n more rows of b bytes.
func (c *Counter) Add(n, b int64) {
	if c != nil {
		c.rows.Add(n)
		c.bytes.Add(b)
	}
}

// TableProgress is the progress of one table.
type TableProgress struct {
	Table     string
	Rows      int64 // rows written (committed or in flight)
	EstRows   int64 // expected rows of all units of this table
	UnitsDone int
	Units     int
}

// Progress is a snapshot of a running load. Rows/s and ETA follow from
// Rows, EstRows and Elapsed.
type Progress struct {
	Tables    []TableProgress // in the order tables first appear in the unit list
	Rows      int64
	EstRows   int64
	Bytes     int64 // estimated payload bytes written
	UnitsDone int
	Units     int
	Elapsed   time.Duration
	Done      bool // final report
}

// Options tune Run.
type Options struct {
	// Threads is the number of workers, each with its own session (>= 1).
	Threads int
	// Progress, if set, is called from one goroutine every Interval and once
	// at the end (Done=true).
	Progress func(Progress)
	// Interval between progress reports (default 1s).
	Interval time.Duration
	// Method selects the write path of Write (default MethodAuto).
	Method Method
	// Finish, if set, runs inside each unit's transaction after its rows, so
	// that recording the unit as done commits atomically with its data.
	Finish func(ctx context.Context, s *Session, u *Unit) error
}

// Stats summarises a finished load.
type Stats struct {
	Rows    int64
	Bytes   int64
	Units   int
	Elapsed time.Duration
	// Methods maps each table written with Write to the path(s) used
	// ("LOAD DATA", "COPY", "INSERT", or e.g. "INSERT+LOAD DATA").
	Methods map[string]string
	// Warnings are notes for the user, e.g. the fallback to INSERT when
	// MySQL refused local infile (reported once).
	Warnings []string
}

type unitState struct {
	u    *Unit
	c    Counter
	done atomic.Bool
}

// Run loads units with opts.Threads workers. Each unit runs in its own write
// transaction; larger units are started first. The first error cancels the
// remaining work and is returned with the unit's key.
func Run(ctx context.Context, d Dialer, units []Unit, opts Options) (Stats, error) {
	start := time.Now()
	threads := max(opts.Threads, 1)
	states := make([]*unitState, len(units))
	for i := range units {
		states[i] = &unitState{u: &units[i]}
	}
	order := append([]*unitState(nil), states...)
	sort.SliceStable(order, func(i, j int) bool { return order[i].u.EstRows > order[j].u.EstRows })
	threads = min(threads, max(len(order), 1))

	bulk := newBulkState(opts.Method)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan *unitState)
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel() })
	}
	for i := 0; i < threads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := d.Connect(ctx)
			if err != nil {
				fail(fmt.Errorf("loader connect: %w", err))
				return
			}
			s := NewSession(conn)
			s.bulk = bulk
			defer func() { s.Conn.Close() }()
			for st := range work {
				var err error
				if s, err = runUnit(ctx, d, s, st, opts.Finish); err != nil {
					fail(err)
					return
				}
			}
		}()
	}
	stopProgress := startProgress(start, states, opts)
	go func() {
		defer close(work)
		for _, st := range order {
			select {
			case work <- st:
			case <-ctx.Done():
				return
			}
		}
	}()
	wg.Wait()
	p := snapshot(start, states)
	stopProgress(p)
	if firstErr == nil && p.UnitsDone < p.Units {
		firstErr = ctx.Err()
		if firstErr == nil {
			firstErr = errors.New("load: workers exited before all units were done")
		}
	}
	bulk.mu.Lock()
	warnings := append([]string(nil), bulk.warnings...)
	bulk.mu.Unlock()
	return Stats{Rows: p.Rows, Bytes: p.Bytes, Units: p.UnitsDone, Elapsed: time.Since(start),
		Methods: bulk.methods(), Warnings: warnings}, firstErr
}

// runUnit runs one unit in its own transaction. A unit whose bulk
// statement was refused (errInsertFallback) is rolled back and run once
// more, by then with INSERT; if the refusing proxy dropped the session
// (ShardingSphere's PostgreSQL frontend after a COPY), on a new one. It
// returns the session to go on with.
func runUnit(ctx context.Context, d Dialer, s *Session, st *unitState, finish func(context.Context, *Session, *Unit) error) (*Session, error) {
	err := runUnitOnce(ctx, s, st, finish)
	if !errors.Is(err, errInsertFallback) {
		return s, err
	}
	err = runUnitOnce(ctx, s, st, finish)
	if target.Classify(err) == target.ClassLostConnection && ctx.Err() == nil {
		conn, cerr := d.Connect(ctx)
		if cerr != nil {
			return s, fmt.Errorf("%w (reconnect after the bulk refusal: %v)", err, cerr)
		}
		s.Conn.Close()
		ns := NewSession(conn)
		ns.bulk = s.bulk
		s = ns
		err = runUnitOnce(ctx, s, st, finish)
	}
	return s, err
}

func runUnitOnce(ctx context.Context, s *Session, st *unitState, finish func(context.Context, *Session, *Unit) error) error {
	u := st.u
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.Conn.Begin(ctx, true); err != nil {
		return fmt.Errorf("%s: begin: %w", u.Key, err)
	}
	_, err := u.Run(ctx, s, &st.c)
	if err == nil && finish != nil {
		err = finish(ctx, s, u)
	}
	if err == nil {
		err = s.Conn.Commit(ctx)
	}
	if err != nil {
		_ = s.Conn.Rollback(context.WithoutCancel(ctx))
		st.c.rows.Store(0)
		st.c.bytes.Store(0) // the retry streams (and counts) them again
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			// Drivers interrupt a cancelled statement by closing or
			// deadlining the socket, so the error may read "use of closed
			// network connection": the cause is the cancellation.
			err = fmt.Errorf("%w (%v)", cerr, err)
		}
		return fmt.Errorf("%s: %w", u.Key, err)
	}
	st.done.Store(true)
	return nil
}

func startProgress(start time.Time, states []*unitState, opts Options) func(Progress) {
	if opts.Progress == nil {
		return func(Progress) {}
	}
	iv := opts.Interval
	if iv <= 0 {
		iv = time.Second
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(iv)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				opts.Progress(snapshot(start, states))
			case <-stop:
				return
			}
		}
	}()
	return func(final Progress) {
		close(stop)
		<-done
		final.Done = true
		opts.Progress(final)
	}
}

func snapshot(start time.Time, states []*unitState) Progress {
	p := Progress{Elapsed: time.Since(start), Units: len(states)}
	idx := map[string]int{}
	for _, st := range states {
		i, ok := idx[st.u.Table]
		if !ok {
			i = len(p.Tables)
			idx[st.u.Table] = i
			p.Tables = append(p.Tables, TableProgress{Table: st.u.Table})
		}
		tp := &p.Tables[i]
		rows := st.c.rows.Load()
		tp.Rows += rows
		tp.EstRows += st.u.EstRows
		tp.Units++
		p.Rows += rows
		p.EstRows += st.u.EstRows
		p.Bytes += st.c.bytes.Load()
		if st.done.Load() {
			tp.UnitsDone++
			p.UnitsDone++
		}
	}
	return p
}
