package tpcc

import (
	"fmt"
	"strings"
	"testing"
)

// unloaded finds what the unit keys do not record, per warehouse and for
// ITEM; describeUnloaded names it with warehouses as ranges.
func TestUnloaded(t *testing.T) {
	// The unit keys of a whole load of w warehouses, planned as prepare
	// plans them, minus those of the warehouses in skip (and of ITEM).
	keys := func(w int, skipItem bool, skip ...int) map[string]string {
		kv := map[string]string{}
		drop := map[int]bool{}
		for _, s := range skip {
			drop[s] = true
		}
		for _, ps := range planSpans(planSpec{wlo: 1, whi: w, items: true, threads: 4}) {
			if (ps.t == tItem && skipItem) || (ps.t != tItem && drop[ps.sp.wlo]) {
				continue
			}
			kv[unitKey(ps.t, ps.sp)] = "done"
		}
		return kv
	}
	tests := []struct {
		kv   map[string]string
		w    int
		want string
	}{
		{keys(3, false), 3, ""},
		{keys(3, false), 4, "warehouse 4"},
		{keys(12, false, 5, 6, 7, 10, 12), 12, "warehouses 5-7, 10, 12"},
		{keys(2, true), 2, "ITEM"},
		{keys(2, true, 1), 2, "ITEM, warehouse 1"},
		{map[string]string{}, 2, "ITEM, warehouses 1-2"},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := describeUnloaded(unloaded(tc.kv, tc.w)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	// One table part of a warehouse missing makes the warehouse missing.
	kv := keys(2, false) // stock split in parts (4 threads over 2 warehouses)
	for k := range kv {
		if strings.HasPrefix(k, unitKeyPrefix+tableNames[tStock]+":2-2:") {
			delete(kv, k)
			break // one part of it
		}
	}
	if got := describeUnloaded(unloaded(kv, 2)); got != "warehouse 2" {
		t.Errorf("stock of warehouse 2 missing: got %q", got)
	}
}
