package sysbench

import (
	"strings"

	"benchpress/internal/registry"
)

func init() {
	registry.Register(&registry.Meta{
		Summarizer: summarizerOf,
		Run:        runCommand,
		Name:       "sysbench",
		Short:      "sysbench OLTP tests (oltp_read_write, oltp_point_select, ...): prepare, run, cleanup",
		Long: `The sysbench 1.0 OLTP Lua tests (oltp_common.lua and friends) with sysbench's
option names and defaults: sbtest1..sbtestN tables, the same statements per event,
the same read/write/other query classification and the same final report.

Tests: ` + strings.Join(Tests(), ", ") + `

Option names follow sysbench; both --table-size and --table_size are accepted,
and booleans take on/off as well as true/false.

The id distribution defaults to --rand-type=special, the default of sysbench
1.0.20 (the last release, the one Linux distributions ship and most published
figures come from): 75 % of ids fall in the middle 1 % of each table. Use
--rand-type=uniform to compare with sysbench built from master.`,
		Variants: &registry.Variants{Names: Tests(), Hint: "test", Check: checkTest},
		Prepare:  prepareCommand,
		Cleanup:  cleanupCommand,
	})
}

// runCommand is `sysbench run TEST`.
var runCommand = registry.RunCommand{
	Use:   "run TEST",
	Short: "Run a sysbench OLTP test and print sysbench's report",
	Long: `Runs TEST (` + strings.Join(Tests(), ", ") + `) for --time seconds
after --warmup-time, with --threads connections, and prints sysbench's final report
(SQL statistics, General statistics, Latency). The tables must have been prepared
with the same --tables and --table-size (exit code 6 if missing, 7 if the size differs).`,
	Example: `  benchpress sysbench run oltp_point_select --target mysql://bench@127.0.0.1:3306/sb --tables 4 --table-size 100000 --threads 8 --time 30
  benchpress sysbench run oltp_read_write --target postgres://bench@db:5432/sb --threads 64 --time 300 --warmup-time 30 --report-interval 10 --json rw.json
  benchpress sysbench run oltp_read_only --rand-type uniform --percentile 95,99,99.9 --time 60`,
	Variant: func(args []string) (string, error) { return testArg(args, true) },
	New:     NewRunOptions,
}
