package results

import "time"

// Partition marks a result as partition Index of Count of one partitioned
// run (--partition I/N). A partition's result is a normal result of its
// share of the terminals; `benchpress merge` combines all Count of them.
// Instants are on the database server's clock (the local clock plus
// ClockSkewMS), so that windows of different load machines compare.
type Partition struct {
	Index int    `json:"index"`
	Count int    `json:"count"`
	RunID string `json:"run_id,omitempty"`
	// Terminals is how many of config.terminals this partition ran.
	Terminals int `json:"terminals"`
	// WarehouseFrom..WarehouseTo (TPC-C) are the home warehouses of its
	// terminals; remote warehouses are drawn over all of them.
	WarehouseFrom int `json:"warehouse_from,omitempty"`
	WarehouseTo   int `json:"warehouse_to,omitempty"`
	// Sync is how the start was agreed: "barrier" (table benchpress_barrier
	// in the target database) or "start_at" (an instant given in advance).
	Sync    string    `json:"sync"`
	StartAt time.Time `json:"start_at"` // agreed start of warm-up (series t = 0)
	// ClockSkewMS is the server's clock minus this driver's, measured with
	// the round trip ClockRTTMS (the estimate is off by at most half of it).
	ClockSkewMS float64 `json:"clock_skew_ms"`
	ClockRTTMS  float64 `json:"clock_rtt_ms"`
	// WindowFrom/WindowTo bound the measurement window actually run.
	WindowFrom time.Time `json:"window_from"`
	WindowTo   time.Time `json:"window_to"`
	// EndedByCount: the window ended when the partition's share of the
	// operation count was done (YCSB operationcount), not at a common
	// instant, so window ends differ legitimately.
	EndedByCount bool `json:"ended_by_count,omitempty"`
	// ExtraNames/Extras are the workload's raw counters over the window
	// (queries by class, audit numerators), so a merge recomputes the
	// workload figures exactly instead of averaging percentages.
	ExtraNames []string `json:"extra_names,omitempty"`
	Extras     []int64  `json:"extras,omitempty"`
}

// Merged marks a result built by `benchpress merge` from all partitions of
// one run: counts summed and HDR histograms merged exactly, so the
// percentiles are those of all samples.
type Merged struct {
	RunID      string          `json:"run_id,omitempty"`
	Partitions []PartitionPart `json:"partitions"`
	// WindowSpreadMS is the largest difference between the partitions'
	// window starts or ends (server clock); ToleranceMS the accepted bound
	// (half the clock-read round trips of the two partitions plus the
	// timer slack).
	WindowSpreadMS float64 `json:"window_spread_ms"`
	ToleranceMS    float64 `json:"tolerance_ms"`
	// SeriesLatency says how per-interval latencies were combined: the
	// per-second series keep no histograms, so the merged interval p95/p99
	// are the largest of the partitions' (an upper bound), avg is exact.
	SeriesLatency string `json:"series_latency"`
}

// PartitionPart is one partition's own figures in a merged result.
type PartitionPart struct {
	Index         int       `json:"index"`
	Terminals     int       `json:"terminals"`
	WarehouseFrom int       `json:"warehouse_from,omitempty"`
	WarehouseTo   int       `json:"warehouse_to,omitempty"`
	Transactions  int64     `json:"transactions"`
	TPS           float64   `json:"tps"`
	TpmC          float64   `json:"tpmC,omitempty"`
	DurationS     float64   `json:"duration_s"`
	ClockSkewMS   float64   `json:"clock_skew_ms"`
	ClockRTTMS    float64   `json:"clock_rtt_ms"`
	WindowFrom    time.Time `json:"window_from"`
	WindowTo      time.Time `json:"window_to"`
	Driver        *Driver   `json:"driver,omitempty"`
}
