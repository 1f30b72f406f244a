package tpcc

import (
	"strings"

	"benchpress/internal/target"
)

// cond is one consistency condition of clause 3.3.2 (reference §1.10),
// written set-based: base is a SELECT whose first two columns are w and d
// (d = 0 for warehouse-level conditions); a row of base violates the
// condition when pred holds ("" = every row of base is a violation).
// Conditions with the same base are counted in one statement.
type cond struct {
	num       int
	name      string
	expensive bool // only with --all
	loadOnly  bool // only while the data set is as loaded (condition 11)
	base      string
	pred      string
	show      []string // base columns printed for the first violation
}

// conditions returns the twelve conditions for kind with the scheme's table
// names. Money comparisons are exact (<>) on DECIMAL engines; on SQLite the
// stored values may be REAL, so they differ when |a-b| > 0.004.
func conditions(k target.Kind, n Names) []cond {
	ne := func(a, b string) string { return a + " <> " + b }
	if k == target.SQLite {
		ne = func(a, b string) string { return "ABS((" + a + ") - (" + b + ")) > 0.004" }
	}
	r := strings.NewReplacer("{warehouse}", n.Warehouse, "{district}", n.District, "{customer}", n.Customer,
		"{history}", n.History, "{new_order}", n.NewOrder, "{orders}", n.Orders, "{order_line}", n.OrderLine)
	// Per-customer sums, pre-aggregated once and joined (never correlated
	// subqueries): delivered order-line amounts and payments.
	custSums := `SELECT c.c_w_id w, c.c_d_id d, c.c_id c_id, c.c_balance c_balance, c.c_ytd_payment c_ytd_payment,
  COALESCE(l.s, 0) sum_ol, COALESCE(h.s, 0) sum_h
FROM {customer} c
LEFT JOIN (SELECT o.o_w_id w, o.o_d_id d, o.o_c_id c, SUM(ol.ol_amount) s
  FROM {orders} o JOIN {order_line} ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id
  WHERE ol.ol_delivery_d IS NOT NULL GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) l
  ON l.w = c.c_w_id AND l.d = c.c_d_id AND l.c = c.c_id
LEFT JOIN (SELECT h_c_w_id w, h_c_d_id d, h_c_id c, SUM(h_amount) s FROM {history}
  GROUP BY h_c_w_id, h_c_d_id, h_c_id) h
  ON h.w = c.c_w_id AND h.d = c.c_d_id AND h.c = c.c_id`
	cs := []cond{
		{num: 1, name: "W_YTD = sum(D_YTD)",
			base: `SELECT w.w_id w, 0 d, w.w_ytd w_ytd, s.s sum_d_ytd FROM {warehouse} w
JOIN (SELECT d_w_id, SUM(d_ytd) s FROM {district} GROUP BY d_w_id) s ON s.d_w_id = w.w_id`,
			pred: ne("w_ytd", "sum_d_ytd"), show: []string{"w_ytd", "sum_d_ytd"}},
		{num: 2, name: "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)",
			base: `SELECT d.d_w_id w, d.d_id d, d.d_next_o_id d_next_o_id, o.mo max_o_id, n.mno max_no_o_id FROM {district} d
LEFT JOIN (SELECT o_w_id, o_d_id, MAX(o_id) mo FROM {orders} GROUP BY o_w_id, o_d_id) o
  ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
LEFT JOIN (SELECT no_w_id, no_d_id, MAX(no_o_id) mno FROM {new_order} GROUP BY no_w_id, no_d_id) n
  ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id`,
			pred: "max_o_id IS NULL OR d_next_o_id - 1 <> max_o_id OR (max_no_o_id IS NOT NULL AND max_no_o_id <> max_o_id)",
			show: []string{"d_next_o_id", "max_o_id", "max_no_o_id"}},
		{num: 3, name: "max(NO_O_ID) - min(NO_O_ID) + 1 = count(NEW-ORDER)",
			base: `SELECT no_w_id w, no_d_id d, MIN(no_o_id) min_no_o_id, MAX(no_o_id) max_no_o_id, COUNT(*) new_orders
FROM {new_order} GROUP BY no_w_id, no_d_id`,
			pred: "max_no_o_id - min_no_o_id + 1 <> new_orders", show: []string{"min_no_o_id", "max_no_o_id", "new_orders"}},
		{num: 4, name: "sum(O_OL_CNT) = count(ORDER-LINE)",
			base: `SELECT d.d_w_id w, d.d_id d, COALESCE(o.s, 0) sum_ol_cnt, COALESCE(l.c, 0) order_lines FROM {district} d
LEFT JOIN (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) s FROM {orders} GROUP BY o_w_id, o_d_id) o
  ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) c FROM {order_line} GROUP BY ol_w_id, ol_d_id) l
  ON l.ol_w_id = d.d_w_id AND l.ol_d_id = d.d_id`,
			pred: "sum_ol_cnt <> order_lines", show: []string{"sum_ol_cnt", "order_lines"}},
		{num: 5, name: "O_CARRIER_ID IS NULL <=> NEW-ORDER row exists",
			base: `SELECT o.o_w_id w, o.o_d_id d, o.o_id o_id, o.o_carrier_id o_carrier_id, n.no_o_id no_o_id
FROM {orders} o LEFT JOIN {new_order} n ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id
WHERE (o.o_carrier_id IS NULL AND n.no_o_id IS NULL) OR (o.o_carrier_id IS NOT NULL AND n.no_o_id IS NOT NULL)
UNION ALL
SELECT n.no_w_id, n.no_d_id, n.no_o_id, NULL, n.no_o_id
FROM {new_order} n LEFT JOIN {orders} o ON o.o_w_id = n.no_w_id AND o.o_d_id = n.no_d_id AND o.o_id = n.no_o_id
WHERE o.o_id IS NULL`,
			show: []string{"o_id", "o_carrier_id", "no_o_id"}},
		{num: 6, name: "O_OL_CNT = count(ORDER-LINE) per order", expensive: true,
			base: `SELECT o.o_w_id w, o.o_d_id d, o.o_id o_id, o.o_ol_cnt o_ol_cnt, COUNT(ol.ol_o_id) order_lines
FROM {orders} o LEFT JOIN {order_line} ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id
GROUP BY o.o_w_id, o.o_d_id, o.o_id, o.o_ol_cnt`,
			pred: "order_lines <> o_ol_cnt", show: []string{"o_id", "o_ol_cnt", "order_lines"}},
		{num: 7, name: "OL_DELIVERY_D IS NULL <=> O_CARRIER_ID IS NULL",
			base: `SELECT o.o_w_id w, o.o_d_id d, o.o_id o_id, ol.ol_number ol_number, o.o_carrier_id o_carrier_id,
  ol.ol_delivery_d ol_delivery_d
FROM {orders} o JOIN {order_line} ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id
WHERE (ol.ol_delivery_d IS NULL AND o.o_carrier_id IS NOT NULL) OR (ol.ol_delivery_d IS NOT NULL AND o.o_carrier_id IS NULL)`,
			show: []string{"o_id", "ol_number", "o_carrier_id", "ol_delivery_d"}},
		{num: 8, name: "W_YTD = sum(H_AMOUNT)",
			base: `SELECT w.w_id w, 0 d, w.w_ytd w_ytd, COALESCE(h.s, 0) sum_h_amount FROM {warehouse} w
LEFT JOIN (SELECT h_w_id, SUM(h_amount) s FROM {history} GROUP BY h_w_id) h ON h.h_w_id = w.w_id`,
			pred: ne("w_ytd", "sum_h_amount"), show: []string{"w_ytd", "sum_h_amount"}},
		{num: 9, name: "D_YTD = sum(H_AMOUNT)",
			base: `SELECT d.d_w_id w, d.d_id d, d.d_ytd d_ytd, COALESCE(h.s, 0) sum_h_amount FROM {district} d
LEFT JOIN (SELECT h_w_id, h_d_id, SUM(h_amount) s FROM {history} GROUP BY h_w_id, h_d_id) h
  ON h.h_w_id = d.d_w_id AND h.h_d_id = d.d_id`,
			pred: ne("d_ytd", "sum_h_amount"), show: []string{"d_ytd", "sum_h_amount"}},
		{num: 10, name: "C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT)", expensive: true,
			base: custSums, pred: ne("c_balance", "sum_ol - sum_h"),
			show: []string{"c_id", "c_balance", "sum_ol", "sum_h"}},
		{num: 11, name: "count(ORDER) - count(NEW-ORDER) = 2100", loadOnly: true,
			base: `SELECT d.d_w_id w, d.d_id d, COALESCE(o.c, 0) orders, COALESCE(n.c, 0) new_orders FROM {district} d
LEFT JOIN (SELECT o_w_id, o_d_id, COUNT(*) c FROM {orders} GROUP BY o_w_id, o_d_id) o
  ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
LEFT JOIN (SELECT no_w_id, no_d_id, COUNT(*) c FROM {new_order} GROUP BY no_w_id, no_d_id) n
  ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id`,
			pred: "orders - new_orders <> 2100", show: []string{"orders", "new_orders"}},
		{num: 12, name: "C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT)", expensive: true,
			base: custSums, pred: ne("c_balance + c_ytd_payment", "sum_ol"),
			show: []string{"c_id", "c_balance", "c_ytd_payment", "sum_ol"}},
	}
	for i := range cs {
		cs[i].base = r.Replace(cs[i].base)
	}
	return cs
}

// castText is the dialect's cast of a value to a string.
func castText(k target.Kind, expr string) string {
	typ := "TEXT"
	if k == target.MySQL {
		typ = "CHAR"
	}
	return "COALESCE(CAST(" + expr + " AS " + typ + "), 'NULL')"
}

// detailSQL selects the first violation of c, ordered by warehouse and
// district, with its shown columns as text.
func (c cond) detailSQL(k target.Kind) string {
	cols := []string{castText(k, "t.w"), castText(k, "t.d")}
	for _, s := range c.show {
		cols = append(cols, castText(k, "t."+s))
	}
	q := "SELECT " + strings.Join(cols, ", ") + " FROM (" + c.base + ") t"
	if c.pred != "" {
		q += " WHERE " + c.pred
	}
	return q + " ORDER BY t.w, t.d LIMIT 1"
}

// violation is the SQL expression counting c's violations over base rows t.
func (c cond) violation() string {
	if c.pred == "" {
		return "COUNT(*)"
	}
	return "COALESCE(SUM(CASE WHEN " + c.pred + " THEN 1 ELSE 0 END), 0)"
}
