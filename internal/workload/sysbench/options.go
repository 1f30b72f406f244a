// Package sysbench implements the sysbench OLTP Lua workloads
// (akopytov/sysbench src/lua/oltp_*.lua) as a benchpress workload: schema and
// parallel prepare, the per-event statement sequences, sysbench's
// read/write/other query classification and its summary figures. See
// shared/reference/workloads.md Part 2; section numbers below refer to it.
//
// Random distribution default: benchpress follows sysbench 1.0.20, the last
// release and the version distributions ship, whose --rand-type default is
// "special" (reference §2.6). Published sysbench numbers (including the seed
// reports) were produced with it, so the same command gives comparable
// figures. Pass RandType "uniform" to emulate sysbench master.
package sysbench

import (
	"errors"
	"fmt"

	"benchpress/internal/randgen"
)

// Options are sysbench's oltp_common.lua options (reference §2.3) with the
// same names and defaults, plus the --rand-* options of sb_rand.c.
type Options struct {
	Tables          int  // --tables (1)
	TableSize       int  // --table_size (10000)
	RangeSize       int  // --range_size (100)
	PointSelects    int  // --point_selects (10)
	SimpleRanges    int  // --simple_ranges (1)
	SumRanges       int  // --sum_ranges (1)
	OrderRanges     int  // --order_ranges (1)
	DistinctRanges  int  // --distinct_ranges (1)
	IndexUpdates    int  // --index_updates (1)
	NonIndexUpdates int  // --non_index_updates (1)
	DeleteInserts   int  // --delete_inserts (1)
	RangeSelects    bool // --range_selects (true): false drops the 4 range kinds
	SkipTrx         bool // --skip_trx (false): true runs every statement in autocommit
	AutoInc         bool // --auto_inc (true): AUTO_INCREMENT / SERIAL id
	Secondary       bool // --secondary (false): id as a secondary index, not the PK
	CreateSecondary bool // --create_secondary (true): create index k_N on k
	// MySQLStorageEngine is --mysql_storage_engine (innodb); MySQL only.
	MySQLStorageEngine string
	// CreateTableOptions is appended to CREATE TABLE (--create_table_options).
	CreateTableOptions string

	RandType     string  // --rand-type: uniform|gaussian|special|pareto|zipfian (special, as 1.0.20)
	RandSpecIter int     // --rand-spec-iter (12)
	RandSpecPct  int     // --rand-spec-pct (1)
	RandSpecRes  int     // --rand-spec-res (75)
	RandParetoH  float64 // --rand-pareto-h (0.2)
	RandZipfExp  float64 // --rand-zipfian-exp (0.8)
	// Seed seeds the terminals' generators (--rand-seed; 0 = time-based).
	Seed uint64
}

// DefaultOptions returns sysbench's defaults.
func DefaultOptions() Options {
	p := randgen.DefaultSBDistParams
	return Options{
		Tables: 1, TableSize: 10000, RangeSize: 100,
		PointSelects: 10, SimpleRanges: 1, SumRanges: 1, OrderRanges: 1, DistinctRanges: 1,
		IndexUpdates: 1, NonIndexUpdates: 1, DeleteInserts: 1,
		RangeSelects: true, AutoInc: true, CreateSecondary: true,
		MySQLStorageEngine: "innodb",
		RandType:           "special",
		RandSpecIter:       p.SpecIter, RandSpecPct: p.SpecPct, RandSpecRes: p.SpecRes,
		RandParetoH: p.ParetoH, RandZipfExp: p.ZipfianExp,
	}
}

func (o *Options) distParams() randgen.SBDistParams {
	return randgen.SBDistParams{SpecIter: o.RandSpecIter, SpecPct: o.RandSpecPct, SpecRes: o.RandSpecRes,
		ParetoH: o.RandParetoH, ZipfianExp: o.RandZipfExp}
}

// Validate returns every problem with the options at once.
func (o *Options) Validate() error {
	var errs []error
	pos := func(name string, v int) {
		if v < 1 {
			errs = append(errs, fmt.Errorf("%s must be >= 1 (got %d)", name, v))
		}
	}
	nonneg := func(name string, v int) {
		if v < 0 {
			errs = append(errs, fmt.Errorf("%s must be >= 0 (got %d)", name, v))
		}
	}
	pos("tables", o.Tables)
	pos("table_size", o.TableSize)
	pos("range_size", o.RangeSize)
	nonneg("point_selects", o.PointSelects)
	nonneg("simple_ranges", o.SimpleRanges)
	nonneg("sum_ranges", o.SumRanges)
	nonneg("order_ranges", o.OrderRanges)
	nonneg("distinct_ranges", o.DistinctRanges)
	nonneg("index_updates", o.IndexUpdates)
	nonneg("non_index_updates", o.NonIndexUpdates)
	nonneg("delete_inserts", o.DeleteInserts)
	if o.TableSize > 1<<31-1 {
		errs = append(errs, fmt.Errorf("table_size must fit a 32-bit INTEGER (got %d)", o.TableSize))
	}
	if !validIdent(o.MySQLStorageEngine) {
		errs = append(errs, fmt.Errorf("mysql_storage_engine %q is not a plain identifier", o.MySQLStorageEngine))
	}
	if _, err := randgen.NewSBDist(o.RandType, o.distParams()); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func validIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
