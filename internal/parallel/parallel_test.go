package parallel

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

func TestEach(t *testing.T) {
	tests := []struct {
		name       string
		n, limit   int
		failAt     map[int]bool
		wantFailed int
		wantFirst  int // index of the first error, -1 none
	}{
		{"none", 0, 4, nil, 0, -1},
		{"all ok", 50, 8, nil, 0, -1},
		{"serial", 10, 0, nil, 0, -1},
		{"some fail", 20, 4, map[int]bool{3: true, 7: true, 19: true}, 3, 3},
		{"all fail, limit above n", 5, 64, map[int]bool{0: true, 1: true, 2: true, 3: true, 4: true}, 5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var inFlight, most, calls atomic.Int64
			errs := Each(tt.n, tt.limit, func(i int) error {
				calls.Add(1)
				raise(&most, inFlight.Add(1))
				time.Sleep(time.Millisecond)
				inFlight.Add(-1)
				if tt.failAt[i] {
					return fmt.Errorf("call %d", i)
				}
				return nil
			})
			if int(calls.Load()) != tt.n {
				t.Fatalf("calls = %d, want %d", calls.Load(), tt.n)
			}
			limit := max(tt.limit, 1)
			if int(most.Load()) > limit {
				t.Errorf("%d calls in flight, limit %d", most.Load(), limit)
			}
			at, failed := First(errs)
			if failed != tt.wantFailed {
				t.Errorf("failed = %d, want %d", failed, tt.wantFailed)
			}
			if tt.wantFirst < 0 {
				if errs != nil || at != -1 {
					t.Errorf("errs = %v, want nil", errs)
				}
				return
			}
			if at != tt.wantFirst || len(errs) != tt.n {
				t.Fatalf("first error at %d of %d, want %d of %d", at, len(errs), tt.wantFirst, tt.n)
			}
			if want := fmt.Sprintf("call %d", at); errs[at] == nil || errs[at].Error() != want {
				t.Errorf("errs[%d] = %v, want %s", at, errs[at], want)
			}
		})
	}
}

// TestEachBound: with limit 2 the calls really overlap (the bound is not
// met by running them one at a time).
func TestEachBound(t *testing.T) {
	var inFlight, most atomic.Int64
	Each(8, 2, func(int) error {
		raise(&most, inFlight.Add(1))
		time.Sleep(5 * time.Millisecond)
		inFlight.Add(-1)
		return nil
	})
	if most.Load() != 2 {
		t.Fatalf("at most %d calls in flight, want 2", most.Load())
	}
}

// raise sets m to v if v is larger.
func raise(m *atomic.Int64, v int64) {
	for {
		cur := m.Load()
		if v <= cur || m.CompareAndSwap(cur, v) {
			return
		}
	}
}
