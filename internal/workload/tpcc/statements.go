package tpcc

import "sort"

// stmtEntry is one SQL template a terminal may prepare: its transaction,
// and its share of that transaction's executions (1 for a fixed statement,
// less for one of several line- or district-count variants).
type stmtEntry struct {
	sql   string
	op    int
	share float64
}

// Variant statements: their SQL depends on a row count, one template per
// count. Order-line inserts vary with the New-Order line count (5..15,
// uniform); the batched Delivery statements with the number of districts
// holding an undelivered order, which is 10 in steady state.
var (
	newOrderVariants = []func(k int) string{insLinesSQL}
	deliveryVariants = []func(k int) string{delNewOrdersSQL, selOrderCustsSQL, updOrdersSQL, updLinesSQL, sumLinesSQL, updCustomersSQL}
)

// catalog lists every SQL template a terminal can execute in the
// configured shape, most frequently executed first under the configured
// mix (ties in the order the transactions prepare them). The frequency is
// the deck weight of the transaction times the template's executions per
// transaction (per line or per district statements count each time).
func (w *Workload) catalog() []stmtEntry {
	var all []stmtEntry
	dummy := &Terminal{w: w}
	dummy.prepareAll(&preparer{t: dummy, rec: &all})
	out := all[:0]
	for _, e := range all {
		if e.share > 0 { // 0: not executed in the configured shape
			out = append(out, e)
		}
	}
	if w.cfg.Shape == ShapePerLine {
		// The count variants are the batched shape's statements.
		return sortByFreq(out, w.cfg.Mix)
	}
	for _, build := range newOrderVariants {
		for k := 5; k <= MaxOrderLines; k++ {
			out = append(out, stmtEntry{sql: build(k), op: OpNewOrder, share: 1.0 / float64(MaxOrderLines-4)})
		}
	}
	for _, build := range deliveryVariants {
		for k := DistrictsPerWarehouse; k >= 1; k-- {
			share := 0.01
			if k == DistrictsPerWarehouse {
				share = 0.9
			}
			out = append(out, stmtEntry{sql: build(k), op: OpDelivery, share: share})
		}
	}
	return sortByFreq(out, w.cfg.Mix)
}

// sortByFreq orders entries by executions under mix (the deck weight of
// the transaction times the template's share), most first; ties keep
// their order.
func sortByFreq(out []stmtEntry, mix [NumOps]int) []stmtEntry {
	freq := func(e stmtEntry) float64 { return float64(mix[e.op]) * e.share }
	sort.SliceStable(out, func(i, j int) bool { return freq(out[i]) > freq(out[j]) })
	return out
}

// StatementKinds is the number of distinct statements a terminal may
// prepare (every template and count variant).
func (w *Workload) StatementKinds() int { return len(w.catalog()) }

// SetStatementBudget lets each terminal hold at most n server-side prepared
// statements (n < 0: no limit): the n most frequently executed under the
// mix are prepared, every other statement runs as text (client-side
// argument encoding, nothing held on the server). It returns how many are
// prepared per terminal. MySQL caps prepared statements per server
// (max_prepared_stmt_count, 16382 by default), which 2048 terminals
// preparing every statement would exceed many times over. Call it before
// terminals are made.
func (w *Workload) SetStatementBudget(n int) int {
	cat := w.catalog()
	if n < 0 || n >= len(cat) {
		w.serverSide = nil
		return len(cat)
	}
	w.serverSide = make(map[string]bool, n)
	for _, e := range cat[:n] {
		w.serverSide[e.sql] = true
	}
	return n
}
