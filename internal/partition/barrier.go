package partition

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"benchpress/internal/target"
)

// BarrierTable is the table the partitions of a run meet in, created in the
// target database itself when missing (no coordinator service): one row per
// (run, partition), joined_us on the server's clock in microseconds.
const BarrierTable = "benchpress_barrier"

// Barrier synchronizes the start of the partitions of one run.
type Barrier struct {
	RunID string
	Spec  Spec
	// Timeout bounds the wait for the other partitions, counted from this
	// partition's arrival.
	Timeout time.Duration
	// Poll is the polling period (default 200 ms).
	Poll time.Duration
	// Lead is how long after the last arrival the run starts, so that every
	// partition sees the full barrier before the agreed instant (default 2 s).
	Lead time.Duration
}

// ErrBarrierTimeout is wrapped by the error Join returns when a partition
// never arrived; the CLI maps it to its own exit code.
var ErrBarrierTimeout = errors.New("barrier timeout")

// TimeoutError says which partitions did not arrive in time.
type TimeoutError struct {
	RunID   string
	Timeout time.Duration
	Count   int
	Missing []int
}

func (e *TimeoutError) Error() string {
	miss := make([]string, len(e.Missing))
	for i, m := range e.Missing {
		miss[i] = fmt.Sprint(m)
	}
	return fmt.Sprintf("barrier: partition(s) %s of %d never arrived at run %q within %s; nothing was measured",
		strings.Join(miss, ","), e.Count, e.RunID, e.Timeout)
}

func (e *TimeoutError) Unwrap() error { return ErrBarrierTimeout }

// retention: rows older than this are deleted when a partition joins.
const retention = 7 * 24 * time.Hour

// Join records this partition's arrival and waits until all Spec.Count
// partitions of RunID have arrived, then returns the agreed start instant
// on the local clock: the last arrival plus Lead on the server's clock,
// converted with skew. Every partition computes the same server instant from
// the same rows. A run id may be used once: a second arrival of the same
// partition is an error. A partition that gives up after joining (the
// timeout, ctx ended, an error) deletes its row, so that a late partition
// waits for a full barrier instead of counting the rows of partitions that
// left, and a restarted partition can join the run id again.
func (b *Barrier) Join(ctx context.Context, conn target.Conn, skew Skew) (_ time.Time, err error) {
	if b.RunID == "" {
		return time.Time{}, errors.New("barrier: a run id is required (--run-id, the same for every partition)")
	}
	poll, lead := b.Poll, b.Lead
	if poll <= 0 {
		poll = 200 * time.Millisecond
	}
	if lead <= 0 {
		lead = 2 * time.Second
	}
	serverNow := func() int64 { return time.Now().Add(skew.Offset).UnixMicro() }
	if err := createTable(ctx, conn); err != nil {
		return time.Time{}, err
	}
	_, _ = conn.Exec(ctx, "DELETE FROM "+BarrierTable+" WHERE joined_us < ?", serverNow()-retention.Microseconds())
	var n int64
	if err := target.QueryRow(ctx, conn, "SELECT COUNT(*) FROM "+BarrierTable+" WHERE run_id = ? AND part = ?", []any{&n}, b.RunID, b.Spec.Index); err != nil {
		return time.Time{}, fmt.Errorf("barrier: %w", err)
	}
	if n > 0 {
		return time.Time{}, fmt.Errorf("barrier: partition %s of run %q already joined: every run needs a new --run-id", b.Spec, b.RunID)
	}
	if _, err := conn.Exec(ctx, "INSERT INTO "+BarrierTable+" (run_id, part, parts, joined_us) VALUES (?, ?, ?, ?)",
		b.RunID, b.Spec.Index, b.Spec.Count, serverNow()); err != nil {
		return time.Time{}, fmt.Errorf("barrier: join run %q: %w", b.RunID, err)
	}
	defer func() {
		if err != nil {
			b.leave(ctx, conn)
		}
	}()
	deadline := time.Now().Add(b.Timeout)
	// The partitions seen while waiting: one that gave up and left before
	// this one's timeout still arrived (the timeout names only the others).
	seen := make([]bool, b.Spec.Count)
	for {
		st, err := b.state(ctx, conn, seen)
		if err != nil {
			return time.Time{}, err
		}
		if st.minParts != int64(b.Spec.Count) || st.maxParts != int64(b.Spec.Count) {
			return time.Time{}, fmt.Errorf("barrier: run %q has partitions of runs split %d and %d ways; every partition needs the same N in --partition I/N",
				b.RunID, st.minParts, st.maxParts)
		}
		if st.count == int64(b.Spec.Count) {
			start := time.UnixMicro(st.lastUS).Add(lead)
			return start.Add(-skew.Offset), nil
		}
		if !time.Now().Before(deadline) {
			return time.Time{}, b.timeout(seen)
		}
		t := time.NewTimer(min(poll, time.Until(deadline)))
		select {
		case <-ctx.Done():
			t.Stop()
			return time.Time{}, ctx.Err()
		case <-t.C:
		}
	}
}

// leaveTimeout bounds the deletion of a partition's row when it gives up.
const leaveTimeout = 5 * time.Second

// leave deletes this partition's row, best effort: on a context that ctx's
// end does not cancel (an interrupted partition leaves too), bounded by
// leaveTimeout.
func (b *Barrier) leave(ctx context.Context, conn target.Conn) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), leaveTimeout)
	defer cancel()
	_, _ = conn.Exec(ctx, "DELETE FROM "+BarrierTable+" WHERE run_id = ? AND part = ?", b.RunID, b.Spec.Index)
}

type barrierState struct {
	count, lastUS, minParts, maxParts int64
}

// state reads the run's rows: how many, the last arrival, the smallest and
// largest N; it marks every partition it finds in seen.
func (b *Barrier) state(ctx context.Context, conn target.Conn, seen []bool) (barrierState, error) {
	var st barrierState
	rows, err := conn.Query(ctx, "SELECT part, parts, joined_us FROM "+BarrierTable+" WHERE run_id = ?", b.RunID)
	if err != nil {
		return st, fmt.Errorf("barrier: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var part, parts, us int64
		if err := rows.Scan(&part, &parts, &us); err != nil {
			return st, fmt.Errorf("barrier: %w", err)
		}
		if st.count == 0 || parts < st.minParts {
			st.minParts = parts
		}
		st.maxParts = max(st.maxParts, parts)
		st.lastUS = max(st.lastUS, us)
		st.count++
		if part >= 0 && int(part) < len(seen) {
			seen[part] = true
		}
	}
	if err := rows.Err(); err != nil {
		return st, fmt.Errorf("barrier: %w", err)
	}
	if st.count == 0 {
		return st, fmt.Errorf("barrier: this partition's row of run %q is gone", b.RunID)
	}
	return st, rows.Close()
}

// timeout builds the TimeoutError with the partitions never seen while
// this one waited.
func (b *Barrier) timeout(seen []bool) error {
	e := &TimeoutError{RunID: b.RunID, Timeout: b.Timeout, Count: b.Spec.Count}
	for i, ok := range seen {
		if !ok {
			e.Missing = append(e.Missing, i)
		}
	}
	return e
}

// createTable creates the barrier table when missing. Concurrent creators
// may race on PostgreSQL's catalog; a failed CREATE is retried while the
// table is not there yet.
func createTable(ctx context.Context, conn target.Conn) error {
	ddl := "CREATE TABLE IF NOT EXISTS " + BarrierTable +
		" (run_id VARCHAR(128) NOT NULL, part INTEGER NOT NULL, parts INTEGER NOT NULL, joined_us BIGINT NOT NULL, PRIMARY KEY (run_id, part))"
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if _, err = conn.Exec(ctx, ddl); err == nil {
			return nil
		}
		var n int64
		if target.QueryRow(ctx, conn, "SELECT COUNT(*) FROM "+BarrierTable+" WHERE 1 = 0", []any{&n}) == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("barrier: create %s: %w", BarrierTable, err)
}
