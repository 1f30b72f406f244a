package ycsb

import (
	"benchpress/internal/metrics"
	"benchpress/internal/results"
)

// Summary is Run.Extra["ycsb"]: YCSB's [OVERALL] figures and the request
// shape. The fields are in the order of their JSON names (the document is
// the same as when it was a map).
type Summary struct {
	InsertOrder         string  `json:"insertorder"`
	Operations          int64   `json:"operations"`
	RequestDistribution string  `json:"requestdistribution"`
	RuntimeMS           float64 `json:"runtime_ms"`
	ScanRecords         int64   `json:"scan_records"`
	ThroughputOpsSec    float64 `json:"throughput_ops_sec"`
}

// Summarize adds YCSB's report figures (§3.7) to r.Extra:
// "return_codes" {READ: {OK: n, NOT_FOUND: n, ERROR: n}, ...} (inner reads
// and updates of READ-MODIFY-WRITE counted under READ and UPDATE, as the
// Java client's DB wrapper does) and "ycsb" (*Summary). Operations counts
// every operation once, failed ones included, as YCSB's Throughput(ops/sec)
// does. With --max-retries (the Java client has none) an attempt that
// failed and was run again is not an operation of its own: it is in the
// run's retries, while the return codes count every attempt (its ERROR
// too), so they can add up to more than Operations.
func (w *Workload) Summarize(r *results.Run, cum *metrics.Snapshot) {
	if cum == nil || len(cum.Extra) < numExtras {
		return
	}
	codes := map[string]map[string]int64{}
	for op := 0; op < numOps; op++ {
		for rc := 0; rc < numRC; rc++ {
			if n := cum.Extra[op*numRC+rc]; n > 0 {
				if codes[opJavaNames[op]] == nil {
					codes[opJavaNames[op]] = map[string]int64{}
				}
				codes[opJavaNames[op]][rcNames[rc]] = n
			}
		}
	}
	var ops int64
	for i := range cum.Counts {
		c := &cum.Counts[i]
		ops += c.OK + c.Rollback + c.Errors()
	}
	secs := r.Summary.DurationS
	var tput float64
	if secs > 0 {
		tput = float64(ops) / secs
	}
	if r.Extra == nil {
		r.Extra = map[string]any{}
	}
	r.Extra["return_codes"] = codes
	r.Extra["ycsb"] = &Summary{
		RuntimeMS: secs * 1000, Operations: ops, ThroughputOpsSec: tput, ScanRecords: cum.Extra[exScanRecords],
		RequestDistribution: w.cfg.RequestDistribution,
		InsertOrder:         map[bool]string{true: "ordered", false: "hashed"}[w.cfg.Ordered],
	}
}

// Statements counts statement round trips: one per op, two per
// read-modify-write.
func (w *Workload) Statements(cum *metrics.Snapshot) int64 {
	if cum == nil {
		return 0
	}
	var n int64
	for i := range cum.Counts {
		c := &cum.Counts[i]
		k := c.OK + c.Rollback + c.Errors()
		if i == OpReadModifyWrite {
			k *= 2
		}
		n += k
	}
	return n
}
