package sysbench

import (
	"strings"

	"github.com/spf13/pflag"

	"benchpress/internal/registry"
	"benchpress/internal/target"
	"benchpress/internal/usage"
)

// defaultTest is the test prepare and cleanup assume without one.
const defaultTest = ReadWrite

// common holds the target and the oltp_common.lua options every
// subcommand accepts (sysbench accepts them everywhere too).
type common struct {
	tf   target.Flags
	opts Options
}

// register declares the target and workload options.
func (c *common) register(fs *pflag.FlagSet) {
	fs.SetNormalizeFunc(registry.UnderscoreToDash)
	c.tf.Register(fs, registry.DefaultTarget)
	registerOptions(fs, &c.opts)
}

// registerOptions declares the workload options with sysbench's names
// (the flag set's normalizer makes --table_size and --table-size alike).
func registerOptions(fs *pflag.FlagSet, o *Options) {
	*o = DefaultOptions()
	fs.IntVar(&o.Tables, "tables", o.Tables, "number of tables sbtest1..sbtestN")
	fs.IntVar(&o.TableSize, "table-size", o.TableSize, "rows per table")
	fs.IntVar(&o.RangeSize, "range-size", o.RangeSize, "width of the BETWEEN ranges")
	fs.IntVar(&o.PointSelects, "point-selects", o.PointSelects, "point SELECTs per event")
	fs.IntVar(&o.SimpleRanges, "simple-ranges", o.SimpleRanges, "simple range SELECTs per event")
	fs.IntVar(&o.SumRanges, "sum-ranges", o.SumRanges, "SUM() range SELECTs per event")
	fs.IntVar(&o.OrderRanges, "order-ranges", o.OrderRanges, "ORDER BY range SELECTs per event")
	fs.IntVar(&o.DistinctRanges, "distinct-ranges", o.DistinctRanges, "DISTINCT range SELECTs per event")
	fs.IntVar(&o.IndexUpdates, "index-updates", o.IndexUpdates, "UPDATE k=k+1 per event")
	fs.IntVar(&o.NonIndexUpdates, "non-index-updates", o.NonIndexUpdates, "UPDATE c=? per event")
	fs.IntVar(&o.DeleteInserts, "delete-inserts", o.DeleteInserts, "DELETE+INSERT pairs per event")
	fs.Var(registry.OnOff{B: &o.RangeSelects}, "range-selects", "run the four range SELECT kinds")
	fs.Var(registry.OnOff{B: &o.SkipTrx}, "skip-trx", "no BEGIN/COMMIT: every statement in autocommit")
	fs.Var(registry.OnOff{B: &o.AutoInc}, "auto-inc", "AUTO_INCREMENT / SERIAL id (off: the client supplies ids)")
	fs.Var(registry.OnOff{B: &o.Secondary}, "secondary", "id as a secondary index instead of the primary key")
	fs.Var(registry.OnOff{B: &o.CreateSecondary}, "create-secondary", "create the secondary index k_N on k")
	fs.StringVar(&o.MySQLStorageEngine, "mysql-storage-engine", o.MySQLStorageEngine, "storage engine (MySQL only)")
	fs.StringVar(&o.CreateTableOptions, "create-table-options", o.CreateTableOptions, "text appended to CREATE TABLE")
	fs.StringVar(&o.RandType, "rand-type", o.RandType, "id distribution: special (sysbench 1.0.20's default: 75 % of ids in the middle 1 %), uniform (sysbench master's default), gaussian, pareto, zipfian")
	fs.IntVar(&o.RandSpecIter, "rand-spec-iter", o.RandSpecIter, "iterations of the gaussian/special distribution")
	fs.IntVar(&o.RandSpecPct, "rand-spec-pct", o.RandSpecPct, "percent of the range that is hot (special)")
	fs.IntVar(&o.RandSpecRes, "rand-spec-res", o.RandSpecRes, "percent of ids drawn from the hot range (special)")
	fs.Float64Var(&o.RandParetoH, "rand-pareto-h", o.RandParetoH, "pareto parameter h")
	fs.Float64Var(&o.RandZipfExp, "rand-zipfian-exp", o.RandZipfExp, "zipfian exponent")
	fs.Uint64Var(&o.Seed, "rand-seed", 0, "random seed (0 = from the clock)")
}

// workloadFor validates test and the options.
func workloadFor(test string, o Options) (*Workload, error) {
	w, err := New(test, o)
	if err != nil {
		return nil, &usage.Error{Err: err}
	}
	return w, nil
}

// testArg returns the TEST argument (or the default for prepare/cleanup).
func testArg(args []string, required bool) (string, error) {
	if len(args) == 0 {
		if required {
			return "", usage.Errorf("missing TEST: one of %s", strings.Join(Tests(), ", "))
		}
		return defaultTest, nil
	}
	if len(args) > 1 {
		return "", usage.Errorf("unexpected argument %q (want one TEST)", args[1])
	}
	if err := checkTest(args[0]); err != nil {
		return "", err
	}
	return args[0], nil
}

// checkTest accepts the tests this package implements, and nothing else.
func checkTest(t string) error {
	for _, k := range Tests() {
		if k == t {
			return nil
		}
	}
	return usage.Errorf("unknown sysbench test %q: use one of %s", t, strings.Join(Tests(), ", "))
}
