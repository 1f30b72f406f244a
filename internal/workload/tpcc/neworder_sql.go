package tpcc

import (
	"fmt"
	"strings"
)

// The New-Order statements batched over the order's lines (see neworder):
// the SQL for k lines, in the {table} and {fu} notation of preparer.

// list appends k copies of item separated by ", ".
func list(b *strings.Builder, k int, item string) {
	for i := 0; i < k; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(item)
	}
}

// selItemsSQL looks up k distinct items in one statement.
func selItemsSQL(k int) string {
	var b strings.Builder
	b.WriteString("SELECT i_id, i_price, i_name, i_data FROM {item} WHERE i_id IN (")
	list(&b, k, "?")
	b.WriteString(")")
	return b.String()
}

// selStocksSQL reads and locks k stock rows, keyed by (s_w_id, s_i_id), in
// primary-key order (the deadlock-avoiding order of sortLines). One CASE
// picks the district's s_dist_DD column (clause 2.4.2.2) without ten
// variants per count.
func selStocksSQL(k int) string {
	var b strings.Builder
	b.WriteString("SELECT s_i_id, s_w_id, s_quantity, s_data, CASE ? + 0")
	for d := 1; d <= DistrictsPerWarehouse; d++ {
		fmt.Fprintf(&b, " WHEN %d THEN s_dist_%02d", d, d)
	}
	b.WriteString(" END, s_ytd, s_order_cnt, s_remote_cnt FROM {stock} WHERE (s_w_id, s_i_id) IN (")
	list(&b, k, "(?, ?)")
	b.WriteString(") ORDER BY s_w_id, s_i_id{fu}")
	return b.String()
}

// updStocksSQL updates k stock rows in one statement. The CASEs are keyed
// on s_i_id alone, which is sound because the item ids of one order are
// distinct (drawNewOrder re-draws duplicates), even across supplying
// warehouses; s_remote_cnt grows by one exactly where s_w_id is not the
// home warehouse (supply ≠ W). "? + 0" types the parameters as integers on
// PostgreSQL.
func updStocksSQL(k int) string {
	var b strings.Builder
	b.WriteString("UPDATE {stock} SET s_quantity = CASE s_i_id")
	b.WriteString(strings.Repeat(" WHEN ? THEN ? + 0", k))
	b.WriteString(" END, s_ytd = s_ytd + CASE s_i_id")
	b.WriteString(strings.Repeat(" WHEN ? THEN ? + 0", k))
	b.WriteString(" END, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + CASE WHEN s_w_id = ? THEN 0 ELSE 1 END WHERE (s_w_id, s_i_id) IN (")
	list(&b, k, "(?, ?)")
	b.WriteString(")")
	return b.String()
}

// insLinesSQL inserts k order lines in one multi-row INSERT.
func insLinesSQL(k int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO {order_line} (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES ")
	list(&b, k, "(?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)")
	return b.String()
}
