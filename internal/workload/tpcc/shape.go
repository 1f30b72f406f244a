package tpcc

import (
	"fmt"

	"benchpress/internal/target"
)

// TxnShape selects how New-Order and Delivery send their per-line work.
type TxnShape string

const (
	// ShapeBatched sends each step for all lines (all districts) in one
	// statement: row-value IN lists, multi-row CASE updates, multi-row
	// INSERT (12 New-Order statements whatever the line count). The default.
	ShapeBatched TxnShape = "batched"
	// ShapePerLine sends one statement per order line (New-Order) and per
	// district (Delivery), keyed by plain equality on the primary key, as
	// BenchmarkSQL and tpcc-mysql do. Sharding proxies that cannot parse or
	// route the batched shapes (ShardingSphere 5.1: "CASE ? + 0", CAST in a
	// CASE) run it; it is the same transaction profile (clauses 2.4.2, 2.7.4)
	// with more round trips.
	ShapePerLine TxnShape = "per-line"
)

// ShapeAuto picks ShapePerLine on a session through a sharding proxy that
// the server version reveals (target.ProxyName), ShapeBatched otherwise.
const ShapeAuto TxnShape = "auto"

// ShapeNames lists the valid --txn-shape values.
func ShapeNames() []string {
	return []string{string(ShapeAuto), string(ShapeBatched), string(ShapePerLine)}
}

// ParseTxnShape checks a --txn-shape value ("" means auto).
func ParseTxnShape(s string) (TxnShape, error) {
	switch TxnShape(s) {
	case "", ShapeAuto:
		return ShapeAuto, nil
	case ShapeBatched:
		return ShapeBatched, nil
	case ShapePerLine:
		return ShapePerLine, nil
	}
	return "", fmt.Errorf("unknown --txn-shape %q (want auto, batched or per-line)", s)
}

// Resolve turns ShapeAuto into the shape for a server reporting
// serverVersion: per-line through a recognised sharding proxy.
func (s TxnShape) Resolve(serverVersion string) TxnShape {
	if s != ShapeAuto && s != "" {
		return s
	}
	if target.ProxyName(serverVersion) != "" {
		return ShapePerLine
	}
	return ShapeBatched
}
