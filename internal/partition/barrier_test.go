package partition

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// runID is unique per test run, so reruns never see old rows.
func runID(t *testing.T, kind target.Kind) string {
	return fmt.Sprintf("%s-%s-%d", t.Name(), kind, time.Now().UnixNano())
}

func TestMeasureSkew(t *testing.T) {
	for _, tg := range testdb.Targets(t) {
		t.Run(string(tg.Kind), func(t *testing.T) {
			_, conn := testdb.Connect(t, tg, target.Options{})
			sk, err := MeasureSkew(context.Background(), conn)
			if err != nil {
				t.Fatal(err)
			}
			// The test servers run on this machine: same clock.
			if sk.Offset.Abs() > 50*time.Millisecond || (tg.Kind != target.SQLite && sk.RTT <= 0) {
				t.Errorf("skew %+v on a local server", sk)
			}
		})
	}
}

func TestBarrier(t *testing.T) {
	for _, tg := range testdb.Targets(t) {
		t.Run(string(tg.Kind), func(t *testing.T) {
			connector, _ := testdb.Connect(t, tg, target.Options{})
			ctx := context.Background()
			joinCtx := func(ctx context.Context, b *Barrier) (time.Time, error) {
				conn, err := connector.Connect(context.Background())
				if err != nil {
					return time.Time{}, err
				}
				defer conn.Close()
				sk, err := MeasureSkew(context.Background(), conn)
				if err != nil {
					return time.Time{}, err
				}
				return b.Join(ctx, conn, sk)
			}
			join := func(b *Barrier) (time.Time, error) { return joinCtx(ctx, b) }
			// rowsOf counts the barrier's rows of run id.
			rowsOf := func(t *testing.T, id string) int64 {
				t.Helper()
				conn, err := connector.Connect(ctx)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				var n int64
				if err := target.QueryRow(ctx, conn, "SELECT COUNT(*) FROM "+BarrierTable+" WHERE run_id = ?", []any{&n}, id); err != nil {
					t.Fatal(err)
				}
				return n
			}

			t.Run("all arrive", func(t *testing.T) {
				id := runID(t, tg.Kind)
				const n = 3
				starts := make([]time.Time, n)
				errs := make([]error, n)
				var wg sync.WaitGroup
				before := time.Now()
				for i := 0; i < n; i++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						time.Sleep(time.Duration(i) * 150 * time.Millisecond) // staggered arrivals
						starts[i], errs[i] = join(&Barrier{RunID: id, Spec: Spec{i, n}, Timeout: 10 * time.Second, Poll: 50 * time.Millisecond, Lead: time.Second})
					}()
				}
				wg.Wait()
				for i := 0; i < n; i++ {
					if errs[i] != nil {
						t.Fatalf("partition %d: %v", i, errs[i])
					}
					if d := starts[i].Sub(starts[0]).Abs(); d > 20*time.Millisecond {
						t.Errorf("partition %d starts %s from partition 0", i, d)
					}
				}
				if !starts[0].After(before.Add(300 * time.Millisecond)) {
					t.Errorf("start %s is not after the last arrival (first joined %s)", starts[0], before)
				}
				// A run id is used once.
				_, err := join(&Barrier{RunID: id, Spec: Spec{1, n}, Timeout: time.Second})
				if err == nil || !strings.Contains(err.Error(), "already joined") {
					t.Errorf("rejoin: %v", err)
				}
			})

			t.Run("one never arrives", func(t *testing.T) {
				id := runID(t, tg.Kind)
				const timeout = 1500 * time.Millisecond
				errs := make([]error, 2)
				var wg sync.WaitGroup
				t0 := time.Now()
				for i := 0; i < 2; i++ { // partitions 0 and 1 of 3; 2 never comes
					wg.Add(1)
					go func() {
						defer wg.Done()
						_, errs[i] = join(&Barrier{RunID: id, Spec: Spec{i, 3}, Timeout: timeout, Poll: 50 * time.Millisecond})
					}()
				}
				wg.Wait()
				if took := time.Since(t0); took > timeout+2*time.Second {
					t.Errorf("took %s with a timeout of %s", took, timeout)
				}
				for i, err := range errs {
					var te *TimeoutError
					if !errors.Is(err, ErrBarrierTimeout) || !errors.As(err, &te) || len(te.Missing) != 1 || te.Missing[0] != 2 {
						t.Fatalf("partition %d: err = %v, want a timeout naming partition 2", i, err)
					}
					if strings.Contains(err.Error(), "\n") {
						t.Errorf("error is not one line: %q", err)
					}
				}
			})

			t.Run("different N", func(t *testing.T) {
				id := runID(t, tg.Kind)
				first := make(chan error, 1)
				go func() {
					_, err := join(&Barrier{RunID: id, Spec: Spec{0, 2}, Timeout: 2 * time.Second, Poll: 50 * time.Millisecond})
					first <- err
				}()
				time.Sleep(300 * time.Millisecond)
				_, err := join(&Barrier{RunID: id, Spec: Spec{1, 3}, Timeout: time.Second})
				if err == nil || !strings.Contains(err.Error(), "same N") {
					t.Errorf("mixed N: %v", err)
				}
				if err := <-first; err == nil {
					t.Errorf("partition 0/2 started without partition 1/2")
				}
				if n := rowsOf(t, id); n != 0 {
					t.Errorf("%d rows left by partitions that gave up, want 0", n)
				}
			})

			// A partition that gives up (its timeout, or interrupted)
			// takes its row with it: a partition arriving later waits for
			// a full barrier instead of starting alone on the stale row,
			// and the same run id can then be joined again (a restarted
			// Job pod).
			for _, tc := range []struct {
				name  string
				leave func(id string) error
			}{
				{"timeout", func(id string) error {
					_, err := join(&Barrier{RunID: id, Spec: Spec{0, 2}, Timeout: 200 * time.Millisecond, Poll: 50 * time.Millisecond})
					return err
				}},
				{"interrupted", func(id string) error {
					ctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
					defer cancel()
					_, err := joinCtx(ctx, &Barrier{RunID: id, Spec: Spec{0, 2}, Timeout: 10 * time.Second, Poll: 50 * time.Millisecond})
					return err
				}},
			} {
				t.Run("gave up: "+tc.name, func(t *testing.T) {
					id := runID(t, tg.Kind)
					if err := tc.leave(id); err == nil {
						t.Fatal("a lonely partition started")
					}
					if n := rowsOf(t, id); n != 0 {
						t.Fatalf("%d rows left by a partition that gave up, want 0", n)
					}
					if _, err := join(&Barrier{RunID: id, Spec: Spec{1, 2}, Timeout: 300 * time.Millisecond, Poll: 50 * time.Millisecond}); !errors.Is(err, ErrBarrierTimeout) {
						t.Fatalf("late partition 1/2: %v, want a timeout (partition 0/2 left)", err)
					}
					errs := make([]error, 2)
					var wg sync.WaitGroup
					for i := range errs {
						wg.Add(1)
						go func() {
							defer wg.Done()
							_, errs[i] = join(&Barrier{RunID: id, Spec: Spec{i, 2}, Timeout: 5 * time.Second, Poll: 50 * time.Millisecond, Lead: 100 * time.Millisecond})
						}()
					}
					wg.Wait()
					for i, err := range errs {
						if err != nil {
							t.Errorf("partition %d/2 joining again: %v", i, err)
						}
					}
				})
			}
		})
	}
}
