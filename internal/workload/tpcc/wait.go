package tpcc

import (
	"math"
	"time"
)

// keyingTimes are clause 5.2.5.7's fixed keying times per op (§1.7).
var keyingTimes = [NumOps]time.Duration{
	OpNewOrder:    18 * time.Second,
	OpPayment:     3 * time.Second,
	OpOrderStatus: 2 * time.Second,
	OpDelivery:    2 * time.Second,
	OpStockLevel:  2 * time.Second,
}

// thinkMeans are clause 5.2.5.7's mean think times per op (§1.7).
var thinkMeans = [NumOps]time.Duration{
	OpNewOrder:    12 * time.Second,
	OpPayment:     12 * time.Second,
	OpOrderStatus: 10 * time.Second,
	OpDelivery:    5 * time.Second,
	OpStockLevel:  5 * time.Second,
}

// Keying is the fixed keying time before op (clause 5.2.5.7).
func (t *Terminal) Keying(op int) time.Duration { return keyingTimes[op] }

// Think draws op's think time (clause 5.2.5.4): −ln(U) × mean with U uniform
// in (0, 1], capped at 10 × mean.
func (t *Terminal) Think(op int) time.Duration {
	return thinkTime(1-t.r.Float64(), thinkMeans[op])
}

// thinkTime is −ln(u) × mean capped at 10 × mean, for u in (0, 1].
func thinkTime(u float64, mean time.Duration) time.Duration {
	limit := 10 * mean
	if u <= 0 {
		return limit
	}
	d := time.Duration(-math.Log(u) * float64(mean))
	if d > limit {
		return limit
	}
	return d
}
