package partition

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		in      string
		want    Spec
		wantErr string
	}{
		{"0/1", Spec{0, 1}, ""},
		{"2/4", Spec{2, 4}, ""},
		{" 1 / 3 ", Spec{1, 3}, ""},
		{"4/4", Spec{}, "0 <= I < N"},
		{"-1/2", Spec{}, "0 <= I < N"},
		{"1/0", Spec{}, "0 <= I < N"},
		{"1", Spec{}, "want I/N"},
		{"a/2", Spec{}, "integers"},
	}
	for _, c := range cases {
		got, err := Parse(c.in)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("Parse(%q) err = %v, want %q", c.in, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

// bind is tpcc.Bind (not imported: the workload packages must not be
// needed to split a run).
func bind(id, w int) (int, int) { return id%w + 1, (id/w)%10 + 1 }

// TestTPCCSplitIsExact: over all partitions every terminal id of the run
// appears exactly once, and no two partitions share a home warehouse.
func TestTPCCSplitIsExact(t *testing.T) {
	cases := []struct{ terminals, w, n int }{{8, 4, 2}, {8, 4, 3}, {8, 4, 4}, {40, 10, 3}, {7, 5, 2}, {100, 7, 3}}
	for _, c := range cases {
		var all []int
		owner := map[int]int{}
		for i := 0; i < c.n; i++ {
			s := Spec{i, c.n}
			if err := s.Validate(c.terminals, c.w); err != nil {
				t.Fatalf("%+v: %v", c, err)
			}
			ids := s.TPCCTerminals(c.terminals, c.w, bind)
			if len(ids) == 0 {
				t.Errorf("%+v: partition %d has no terminals", c, i)
			}
			lo, hi := s.Warehouses(c.w)
			for _, id := range ids {
				wh, _ := bind(id, c.w)
				if wh < lo || wh > hi {
					t.Errorf("%+v: terminal %d's warehouse %d outside [%d,%d]", c, id, wh, lo, hi)
				}
				if o, ok := owner[wh]; ok && o != i {
					t.Errorf("%+v: warehouse %d is home to partitions %d and %d", c, wh, o, i)
				}
				owner[wh] = i
			}
			all = append(all, ids...)
		}
		slices.Sort(all)
		for id := 0; id < c.terminals; id++ {
			if id >= len(all) || all[id] != id {
				t.Fatalf("%+v: terminal ids over all partitions = %v, want 0..%d once each", c, all, c.terminals-1)
			}
		}
	}
}

func TestThreadsAndShare(t *testing.T) {
	for _, c := range []struct {
		threads, n int
		ops        int64
	}{{8, 3, 1000}, {5, 5, 7}, {10, 4, 99}, {100, 3, 1e17}, {256, 7, math.MaxInt64 / 2}} { // the last two overflow a 64-bit product

		seen := 0
		var ops int64
		for i := 0; i < c.n; i++ {
			s := Spec{i, c.n}
			ids := s.Threads(c.threads)
			lo, hi := s.Range(c.threads)
			if lo != seen || hi-lo != len(ids) || (len(ids) > 0 && (ids[0] != lo || ids[len(ids)-1] != hi-1)) {
				t.Errorf("%+v: partition %d range [%d,%d), previous end %d", c, i, lo, hi, seen)
			}
			seen = hi
			ops += Share(c.ops, lo, hi, c.threads)
		}
		if seen != c.threads || ops != c.ops {
			t.Errorf("%+v: threads covered %d, ops shared %d", c, seen, ops)
		}
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		s            Spec
		terminals, w int
		wantErr      string
	}{
		{Spec{0, 1}, 1, 1, ""},
		{Spec{0, 4}, 8, 2, "cannot be split into 4"},
		{Spec{0, 3}, 2, 0, "2 terminal(s) cannot be split"},
		{Spec{0, 2}, 3, 4, "one terminal per warehouse"},
		{Spec{1, 2}, 4, 4, ""},
	}
	for _, c := range cases {
		err := c.s.Validate(c.terminals, c.w)
		if (c.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.wantErr)) {
			t.Errorf("%v.Validate(%d, %d) = %v, want %q", c.s, c.terminals, c.w, err, c.wantErr)
		}
	}
}
