// Package all registers every workload family with the registry; a new
// family adds one import line here.
package all

import (
	_ "benchpress/internal/workload/sysbench" // sysbench OLTP tests
	_ "benchpress/internal/workload/tpcc"     // TPC-C
	_ "benchpress/internal/workload/ycsb"     // YCSB core workloads
)
