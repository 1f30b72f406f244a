package sysbench

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"benchpress/internal/target"
)

// TestPartitionable: only oltp_insert with auto_inc off and a clock seed is
// refused (its partitions would draw ids from different offsets).
func TestPartitionable(t *testing.T) {
	for _, tc := range []struct {
		test    string
		autoInc bool
		seed    uint64
		ok      bool
	}{
		{Insert, false, 0, false},
		{Insert, false, 42, true},
		{Insert, true, 0, true},
		{ReadWrite, false, 0, true},
		{WriteOnly, false, 0, true},
	} {
		o := DefaultOptions()
		o.AutoInc, o.Seed = tc.autoInc, tc.seed
		w, err := New(tc.test, o)
		if err != nil {
			t.Fatal(err)
		}
		err = w.Partitionable()
		if (err == nil) != tc.ok {
			t.Errorf("%s auto_inc=%v seed=%d: Partitionable() = %v, want ok=%v", tc.test, tc.autoInc, tc.seed, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "--rand-seed") {
			t.Errorf("error %q does not name --rand-seed", err)
		}
	}
}

// TestUniqueIDsDisjoint: with auto_inc off, the ids oltp_insert inserts are
// distinct over all terminals of a run, whether they run in one process or
// in partitions (one Workload per process, the same seed, each with its
// share of the global terminal ids), and a terminal re-created after a
// reconnect goes on with new ids.
func TestUniqueIDsDisjoint(t *testing.T) {
	const events = 500
	for _, tc := range []struct {
		name      string
		processes [][]int // global terminal ids per process
		reconnect bool    // re-create each process's first terminal halfway
	}{
		{"one process", [][]int{{0, 1, 2, 3}}, false},
		{"two partitions", [][]int{{0, 1}, {2, 3}}, false},
		{"four partitions, one thread each", [][]int{{0}, {1}, {2}, {3}}, false},
		{"two partitions with reconnects", [][]int{{0, 1}, {2, 3}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			total := 0
			for _, ids := range tc.processes {
				total += len(ids)
			}
			seen := map[int64]int{}
			for _, ids := range tc.processes {
				o := DefaultOptions()
				o.AutoInc, o.Seed = false, 42
				w, err := New(Insert, o)
				if err != nil {
					t.Fatal(err)
				}
				for i, id := range ids {
					conn := &nopConn{fakeConn: fakeConn{kind: target.MySQL}}
					term, err := w.NewTerminal(context.Background(), id, total, conn)
					if err != nil {
						t.Fatal(err)
					}
					for e := 0; e < events; e++ {
						if tc.reconnect && i == 0 && e == events/2 {
							if term, err = w.NewTerminal(context.Background(), id, total, conn); err != nil {
								t.Fatal(err)
							}
						}
						if _, err := term.Exec(context.Background(), 0); err != nil {
							t.Fatal(err)
						}
						v := conn.stmt.ints[0]
						if prev, dup := seen[v]; dup {
							t.Fatalf("id %d inserted by terminals %d and %d", v, prev, id)
						}
						seen[v] = id
					}
				}
			}
			if len(seen) != total*events {
				t.Errorf("%d distinct ids, want %d", len(seen), total*events)
			}
		})
	}
}

// TestUniqueIDsSpent: a terminal whose next index no longer fits in 32
// bits fails its event instead of repeating an id.
func TestUniqueIDsSpent(t *testing.T) {
	o := DefaultOptions()
	o.AutoInc, o.Seed = false, 1
	w, _ := New(Insert, o)
	conn := &nopConn{fakeConn: fakeConn{kind: target.MySQL}}
	term, _ := w.NewTerminal(context.Background(), 3, 4, conn)
	tm := term.(*terminal)
	tm.unique.Store((math.MaxUint32 - 3) / 4) // last index of terminal 3 of 4
	if _, err := term.Exec(context.Background(), 0); err != nil {
		t.Fatalf("last index: %v", err)
	}
	if _, err := term.Exec(context.Background(), 0); !errors.Is(err, errUniqueSpent) {
		t.Fatalf("after the last index: %v, want %v", err, errUniqueSpent)
	}
}
