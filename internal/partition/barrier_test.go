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
			join := func(b *Barrier) (time.Time, error) {
				conn, err := connector.Connect(ctx)
				if err != nil {
					return time.Time{}, err
				}
				defer conn.Close()
				sk, err := MeasureSkew(ctx, conn)
				if err != nil {
					return time.Time{}, err
				}
				return b.Join(ctx, conn, sk)
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
				if _, err := join(&Barrier{RunID: id, Spec: Spec{0, 2}, Timeout: 50 * time.Millisecond}); !errors.Is(err, ErrBarrierTimeout) {
					t.Fatalf("lonely partition: %v", err)
				}
				_, err := join(&Barrier{RunID: id, Spec: Spec{1, 3}, Timeout: time.Second})
				if err == nil || !strings.Contains(err.Error(), "same N") {
					t.Errorf("mixed N: %v", err)
				}
			})
		})
	}
}
