// Package tpcc implements TPC-C (Standard Specification rev. 5.11) as a
// benchpress workload: schema, data generation, the five transactions and the
// consistency checks. See ../shared/reference/workloads.md Part 1; clause
// numbers below refer to the specification.
package tpcc

// Cardinalities (clause 1.2 / 4.3.3.1).
const (
	NumItems              = 100000
	DistrictsPerWarehouse = 10
	CustomersPerDistrict  = 3000
	OrdersPerDistrict     = 3000
	NewOrdersPerDistrict  = 900
	FirstUndeliveredOrder = 2101 // orders >= this have no carrier and a new_order row
	InitialNextOrderID    = 3001
	TerminalsPerWarehouse = 10
	MaxTpmCPerWarehouse   = 12.86 // clause 4.2 / reference §1.9
	MaxOrderLines         = 15    // clause 2.4.1.3: ol_cnt in [5, 15]
)

// Operation ids, in deck/mix order.
const (
	OpNewOrder = iota
	OpPayment
	OpOrderStatus
	OpDelivery
	OpStockLevel
	NumOps
)

// OpNames are the transaction names used in output and JSON.
var OpNames = []string{"new_order", "payment", "order_status", "delivery", "stock_level"}

// DefaultMix is the default deck weights, in op order (clause 5.2.3).
var DefaultMix = [NumOps]int{45, 43, 4, 4, 4}

// lastNameSyllables are clause 4.3.2.3's syllables for digits 0..9.
var lastNameSyllables = [10]string{"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"}

// AppendLastName appends the C_LAST built from n in [0, 999].
func AppendLastName(b []byte, n int) []byte {
	b = append(b, lastNameSyllables[n/100]...)
	b = append(b, lastNameSyllables[(n/10)%10]...)
	return append(b, lastNameSyllables[n%10]...)
}

// LastName returns the C_LAST for n in [0, 999].
func LastName(n int) string { return string(AppendLastName(make([]byte, 0, 16), n)) }
