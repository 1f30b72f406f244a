package tpcc

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"benchpress/internal/load"
)

// interval is an inclusive range of sub-unit numbers: districts, or item ids
// for ITEM and STOCK.
type interval struct{ lo, hi int }

// fullInterval is the whole sub-range of table t in one warehouse.
func fullInterval(t tableID) interval {
	switch t {
	case tItem, tStock:
		return interval{1, NumItems}
	case tWarehouse:
		return interval{0, 0}
	}
	return interval{1, DistrictsPerWarehouse}
}

// unitKey returns the metadata key of the unit loading sp of table t:
// unit:<table>:<wlo>-<whi>[:<slo>-<shi>] (the sub-range only when it is not
// the whole table of the warehouse), or unit:item:<lo>-<hi>.
func unitKey(t tableID, sp span) string {
	if t == tItem {
		return fmt.Sprintf("%sitem:%d-%d", unitKeyPrefix, sp.slo, sp.shi)
	}
	key := fmt.Sprintf("%s%s:%d-%d", unitKeyPrefix, tableNames[t], sp.wlo, sp.whi)
	if full := fullInterval(t); t != tWarehouse && (sp.slo != full.lo || sp.shi != full.hi) {
		key += fmt.Sprintf(":%d-%d", sp.slo, sp.shi)
	}
	return key
}

// doneKey identifies the recorded intervals of one table in one warehouse
// (warehouse 0 for ITEM).
type doneKey struct {
	t tableID
	w int
}

// parseRange parses "a-b".
func parseRange(s string) (interval, bool) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return interval{}, false
	}
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	return interval{lo, hi}, err1 == nil && err2 == nil && lo <= hi
}

// doneIntervals parses the unit keys recorded in the metadata into the
// sub-intervals already loaded per (table, warehouse).
func doneIntervals(kv map[string]string) map[doneKey][]interval {
	byName := map[string]tableID{}
	for t, name := range tableNames {
		byName[name] = t
	}
	out := map[doneKey][]interval{}
	for k := range kv {
		rest, ok := strings.CutPrefix(k, unitKeyPrefix)
		if !ok {
			continue
		}
		parts := strings.Split(rest, ":")
		t, ok := byName[parts[0]]
		if !ok || len(parts) < 2 {
			continue
		}
		r, ok := parseRange(parts[1])
		if !ok {
			continue
		}
		if t == tItem {
			out[doneKey{tItem, 0}] = append(out[doneKey{tItem, 0}], r)
			continue
		}
		sub := fullInterval(t)
		if len(parts) > 2 {
			if sub, ok = parseRange(parts[2]); !ok {
				continue
			}
		}
		for w := r.lo; w <= r.hi; w++ {
			out[doneKey{t, w}] = append(out[doneKey{t, w}], sub)
		}
	}
	return out
}

// gaps returns the parts of full not covered by done.
func gaps(full interval, done []interval) []interval {
	sort.Slice(done, func(i, j int) bool { return done[i].lo < done[j].lo })
	var out []interval
	next := full.lo
	for _, d := range done {
		if d.hi < next || d.lo > full.hi {
			continue
		}
		if d.lo > next {
			out = append(out, interval{next, d.lo - 1})
		}
		next = max(next, d.hi+1)
	}
	if next <= full.hi {
		out = append(out, interval{next, full.hi})
	}
	return out
}

// planSpec selects the units of a load.
type planSpec struct {
	wlo, whi int  // warehouses to load
	items    bool // load ITEM (the parts not recorded in done)
	threads  int
	done     map[doneKey][]interval // recorded units, skipped
	clean    bool                   // delete a unit's key range before loading it (existing data set)
	// cleanTo, with clean, limits the cleaning to units that start at or
	// below this warehouse: the data set's count before this load (which
	// raises it before loading, so no earlier load left rows above it).
	// Warehouses added by a range have no rows to delete, and looking for
	// them in HISTORY (no index on h_w_id) is a full scan per unit.
	// 0: clean every unit.
	cleanTo int
}

// plannedSpan is one unit of a load before it is bound to a writer.
type plannedSpan struct {
	t   tableID
	sp  span
	est int64
}

// planSpans returns the spans of spec over meta's data set: for ITEM (if
// wanted) and every per-warehouse table of every warehouse, the sub-ranges
// not yet recorded as done. When there are fewer warehouses than threads,
// the big tables (STOCK, CUSTOMER, ORDER-LINE) are split further so that all
// threads have work; ITEM and STOCK splits stay on ItemChunk boundaries
// (their random streams are per chunk).
func planSpans(spec planSpec) []plannedSpan {
	var out []plannedSpan
	add := func(t tableID, sp span, est int64) { out = append(out, plannedSpan{t, sp, est}) }
	if spec.items {
		for _, g := range gaps(fullInterval(tItem), spec.done[doneKey{tItem, 0}]) {
			for lo := g.lo; lo <= g.hi; lo += 2 * ItemChunk {
				hi := min(lo+2*ItemChunk-1, g.hi)
				add(tItem, span{0, 0, lo, hi}, int64(hi-lo+1))
			}
		}
	}
	nw := spec.whi - spec.wlo + 1
	split := 1 // parts per warehouse for the big tables
	if nw < spec.threads {
		split = min(5, (spec.threads+nw-1)/nw)
	}
	perSub := map[tableID]int64{tDistrict: 1, tHistory: CustomersPerDistrict, tOrders: OrdersPerDistrict,
		tNewOrder: NewOrdersPerDistrict, tCustomer: CustomersPerDistrict, tOrderLine: OrdersPerDistrict * 10, tStock: 1}
	for w := spec.wlo; w <= spec.whi; w++ {
		if len(spec.done[doneKey{tWarehouse, w}]) == 0 {
			add(tWarehouse, span{w, w, 0, 0}, 1)
		}
		for _, t := range []tableID{tDistrict, tHistory, tOrders, tNewOrder, tCustomer, tOrderLine, tStock} {
			for _, g := range gaps(fullInterval(t), spec.done[doneKey{t, w}]) {
				parts := 1
				if t == tCustomer || t == tOrderLine || t == tStock {
					parts = split
				}
				for _, sub := range splitInterval(t, g, parts) {
					add(t, span{w, w, sub.lo, sub.hi}, int64(sub.hi-sub.lo+1)*perSub[t])
				}
			}
		}
	}
	return out
}

// plan returns the load units of spec (see planSpans); each writes its rows
// with load.Write, after deleting its key range when spec.clean is set.
func plan(meta Meta, n Names, spec planSpec) []load.Unit {
	p := meta.GenParams()
	var units []load.Unit
	for _, ps := range planSpans(spec) {
		t, sp := ps.t, ps.sp
		table := t.physical(n)
		clean := spec.clean && (spec.cleanTo == 0 || sp.wlo <= spec.cleanTo)
		units = append(units, load.Unit{Key: unitKey(t, sp), Table: table, EstRows: ps.est,
			Run: func(ctx context.Context, s *load.Session, c *load.Counter) (int64, error) {
				if clean {
					if err := deleteSpan(ctx, s, n, t, sp); err != nil {
						return 0, err
					}
				}
				rows, err := load.Write(ctx, s, table, newSource(t, p, sp), c)
				if err != nil {
					return rows, fmt.Errorf("load %s warehouses %d-%d: %w", table, sp.wlo, sp.whi, err)
				}
				return rows, nil
			}})
	}
	return units
}

// splitInterval cuts g into about parts pieces (STOCK on ItemChunk
// boundaries; g is chunk-aligned because every recorded unit is).
func splitInterval(t tableID, g interval, parts int) []interval {
	unit := 1
	if t == tStock {
		unit = ItemChunk
	}
	n := (g.hi - g.lo + 1) / unit
	if parts <= 1 || n < 2 {
		return []interval{g}
	}
	parts = min(parts, n)
	var out []interval
	for i := 0; i < parts; i++ {
		lo, hi := g.lo+i*n/parts*unit, g.lo+(i+1)*n/parts*unit-1
		if i == parts-1 {
			hi = g.hi
		}
		out = append(out, interval{lo, hi})
	}
	return out
}

// spanColumns are the warehouse and sub-range key columns of each table.
var spanColumns = map[tableID][2]string{
	tItem:      {"", "i_id"},
	tWarehouse: {"w_id", ""},
	tDistrict:  {"d_w_id", "d_id"},
	tCustomer:  {"c_w_id", "c_d_id"},
	tHistory:   {"h_w_id", "h_d_id"},
	tOrders:    {"o_w_id", "o_d_id"},
	tNewOrder:  {"no_w_id", "no_d_id"},
	tOrderLine: {"ol_w_id", "ol_d_id"},
	tStock:     {"s_w_id", "s_i_id"},
}

// deleteSpan removes the rows of a unit (left by an earlier load that did
// not record it, or reloaded on purpose) inside the unit's transaction.
func deleteSpan(ctx context.Context, s *load.Session, n Names, t tableID, sp span) error {
	cols := spanColumns[t]
	var conds []string
	var args []any
	if cols[0] != "" {
		conds = append(conds, cols[0]+" BETWEEN ? AND ?")
		args = append(args, sp.wlo, sp.whi)
	}
	if cols[1] != "" {
		conds = append(conds, cols[1]+" BETWEEN ? AND ?")
		args = append(args, sp.slo, sp.shi)
	}
	where := " WHERE " + strings.Join(conds, " AND ")
	// Look first (a plain read takes no locks): usually the range is empty,
	// and a DELETE of an empty range would still lock gaps on MySQL.
	rows, err := s.Conn.Query(ctx, "SELECT 1 FROM "+t.physical(n)+where+" LIMIT 1", args...)
	if err != nil {
		return fmt.Errorf("clean %s warehouses %d-%d before reload: %w", t.physical(n), sp.wlo, sp.whi, err)
	}
	found := rows.Next()
	err = rows.Err()
	rows.Close()
	if err != nil || !found {
		return err
	}
	q := "DELETE FROM " + t.physical(n) + where
	if _, err := s.Conn.Exec(ctx, q, args...); err != nil {
		return fmt.Errorf("clean %s warehouses %d-%d (%s %d-%d) before reload: %w",
			t.physical(n), sp.wlo, sp.whi, cols[1], sp.slo, sp.shi, err)
	}
	return nil
}

// unloaded returns what of a data set of warehouses warehouses the unit keys
// in kv do not record as loaded: whether parts of ITEM are missing, and the
// warehouses (ascending) with a table part missing. A load that covered only
// a range (--warehouse-range, or another machine's range still running)
// leaves the others here; the data set is complete only when both are empty.
func unloaded(kv map[string]string, warehouses int) (item bool, ws []int) {
	spans := planSpans(planSpec{wlo: 1, whi: warehouses, items: true, threads: 1, done: doneIntervals(kv)})
	for _, ps := range spans {
		if ps.t == tItem {
			item = true
			continue
		}
		if len(ws) == 0 || ws[len(ws)-1] != ps.sp.wlo {
			ws = append(ws, ps.sp.wlo)
		}
	}
	return item, ws
}

// unloadedOf returns the warehouse count of the data set recorded in kv
// (at least atLeast) and what of it is not recorded as loaded
// (describeUnloaded); "" when the count is 0 or unreadable.
func unloadedOf(kv map[string]string, atLeast int) (int, string) {
	w := atLeast
	if v, err := strconv.Atoi(kv[keyWarehouses]); err == nil {
		w = max(w, v)
	}
	if w < 1 {
		return w, ""
	}
	return w, describeUnloaded(unloaded(kv, w))
}

// describeUnloaded names what unloaded found, warehouses as ranges
// ("ITEM, warehouses 5-10, 12"); "" when nothing is missing.
func describeUnloaded(item bool, ws []int) string {
	var parts []string
	if item {
		parts = append(parts, "ITEM")
	}
	var rs []string
	for i := 0; i < len(ws); {
		j := i
		for j+1 < len(ws) && ws[j+1] == ws[j]+1 {
			j++
		}
		if i == j {
			rs = append(rs, strconv.Itoa(ws[i]))
		} else {
			rs = append(rs, fmt.Sprintf("%d-%d", ws[i], ws[j]))
		}
		i = j + 1
	}
	if len(rs) > 0 {
		w := "warehouses "
		if len(ws) == 1 {
			w = "warehouse "
		}
		parts = append(parts, w+strings.Join(rs, ", "))
	}
	return strings.Join(parts, ", ")
}
