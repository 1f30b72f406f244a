package tpcc

import "benchpress/internal/registry"

func init() {
	registry.Register(&registry.Meta{
		Name:       "tpcc",
		Summarizer: summarizerOf,
		Short:      "TPC-C (rev. 5.11): prepare, run, check, cleanup",
		Long: `TPC-C as specified in TPC-C 5.11: nine tables, five transactions dealt from a
true deck of cards (45/43/4/4/4), terminals bound to a home warehouse and district,
tpmC counted from the New-Orders started inside the measurement window, each run
to completion (those in flight when it closes included; see docs/tpcc.md).`,
		Prepare: prepareCommand,
		Check:   &checkCommand,
		Cleanup: cleanupCommand,
		Extra:   []registry.Command{shardRulesCommand},
		Run: registry.RunCommand{
			Use:   "run",
			Short: "Run the TPC-C mix and report tpmC, tpmTOTAL and latency per transaction",
			Example: `  benchpress tpcc run --target mysql://bench@127.0.0.1:3306/tpcc --terminals 8 --warmup 5s --duration 60s --json r.json
  benchpress tpcc run --target mysql://bench@lb1:3306,lb2:3306/tpcc --terminals 512 --duration 5m
  benchpress tpcc run --target postgres://bench@db:5432/tpcc --terminals 40 --wait --duration 30m`,
			New: NewRunOptions,
		},
	})
}
