package tpcc

import (
	"context"
	"fmt"
	"strings"

	"benchpress/internal/target"
)

// balanceKey is a customer key (c_w_id, c_d_id, c_id).
type balanceKey struct{ w, d, c int64 }

// customerBalanceViaClient checks condition 10 (C_BALANCE = sum(delivered
// OL_AMOUNT) - sum(H_AMOUNT) per customer) for a session through a
// sharding proxy. A HISTORY row lives on the shard of the paying terminal's
// warehouse (h_w_id), not the customer's when the payment was remote, so
// the set-based statement, which the proxy pushes down to every shard and
// joins there, misses remote payments and reports false violations. Here
// the history sums come from one GROUP BY over HISTORY alone (the proxy
// merges it across shards), the balances and delivered amounts from
// CUSTOMER with its co-located orders, and the client compares them.
// It returns the violations and the first one (by warehouse, district,
// customer).
func customerBalanceViaClient(ctx context.Context, conn target.Conn, n Names) (int64, string, error) {
	paid := map[balanceKey]target.Cents{}
	rows, err := conn.Query(ctx, fmt.Sprintf("SELECT h_c_w_id, h_c_d_id, h_c_id, SUM(h_amount) s FROM %s GROUP BY h_c_w_id, h_c_d_id, h_c_id", n.History))
	if err != nil {
		return 0, "", err
	}
	for rows.Next() {
		var k balanceKey
		var s target.Cents
		if err := rows.Scan(&k.w, &k.d, &k.c, &s); err != nil {
			rows.Close()
			return 0, "", err
		}
		paid[k] += s
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return 0, "", err
	}
	rows.Close()
	q := strings.NewReplacer("{customer}", n.Customer, "{orders}", n.Orders, "{order_line}", n.OrderLine).Replace(
		`SELECT t.w, t.d, t.c_id, t.c_balance, t.sum_ol FROM (SELECT c.c_w_id w, c.c_d_id d, c.c_id c_id, c.c_balance c_balance, COALESCE(l.s, 0) sum_ol
FROM {customer} c
LEFT JOIN (SELECT o.o_w_id w, o.o_d_id d, o.o_c_id c, SUM(ol.ol_amount) s
  FROM {orders} o JOIN {order_line} ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id
  WHERE ol.ol_delivery_d IS NOT NULL GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) l
  ON l.w = c.c_w_id AND l.d = c.c_d_id AND l.c = c.c_id) t`)
	rows, err = conn.Query(ctx, q)
	if err != nil {
		return 0, "", err
	}
	defer rows.Close()
	var bad int64
	var first balanceKey
	var fb, fo, fh target.Cents
	for rows.Next() {
		var k balanceKey
		var bal, ol target.Cents
		if err := rows.Scan(&k.w, &k.d, &k.c, &bal, &ol); err != nil {
			return 0, "", err
		}
		h := paid[k]
		if bal == ol-h {
			continue
		}
		if bad == 0 || k.w < first.w || (k.w == first.w && (k.d < first.d || (k.d == first.d && k.c < first.c))) {
			first, fb, fo, fh = k, bal, ol, h
		}
		bad++
	}
	if err := rows.Err(); err != nil {
		return 0, "", err
	}
	if bad == 0 {
		return 0, "", nil
	}
	return bad, fmt.Sprintf("warehouse %d district %d c_id=%d c_balance=%s sum_ol=%s sum_h=%s (computed in the client: through a proxy)",
		first.w, first.d, first.c, fb, fo, fh), nil
}
