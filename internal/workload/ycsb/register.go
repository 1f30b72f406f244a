package ycsb

import "benchpress/internal/registry"

func init() {
	registry.Register(&registry.Meta{
		Summarizer: summarizerOf,
		Run:        runCommand,
		Name:       "ycsb",
		Short:      "YCSB core workloads A-F (or custom properties): load, run, cleanup",
		Long: `YCSB's CoreWorkload over SQL, as the JDBC binding runs it: table usertable
(YCSB_KEY + FIELD0..FIELD9), keys "user" + FNV-64 hash of the key number like Java
YCSB (insertorder=hashed), and the workload files A-F of brianfrankcooper/YCSB:

  a  50 % read, 50 % update, zipfian        d  95 % read, 5 % insert, latest
  b  95 % read,  5 % update, zipfian        e  95 % scan, 5 % insert, zipfian, maxscanlength 100
  c  100 % read, zipfian                    f  50 % read, 50 % read-modify-write, zipfian

"custom" starts from CoreWorkload's defaults and takes everything from
--properties FILE. Any core property can be overridden with -p name=value; the
properties file is applied first, then -p, then --records / --operations.

go-ycsb's own workload files differ (uniform requests for A, B, C, E, F and
maxscanlength=1 for E): add -p requestdistribution=uniform to reproduce them.`,
		Prepare:  loadCommand,
		Cleanup:  cleanupCommand,
		Variants: &registry.Variants{Names: append(Workloads(), "custom"), Hint: "a-f", Check: checkVariant},
	})
}

// runCommand is `ycsb run WORKLOAD`.
var runCommand = registry.RunCommand{
	Use:   "run WORKLOAD",
	Short: "Run a YCSB workload (a-f or custom) and print per-operation latency like go-ycsb",
	Long: `Runs the transaction phase of WORKLOAD against a loaded usertable (exit code 6
if the table is missing, 7 if its first or last record is). The run stops after
--operations operations or --time seconds, whichever comes first; with --time
alone the workload's default operationcount is ignored. --rate throttles to a
total ops/s in open loop, measuring latency from each operation's intended start.`,
	Example: `  benchpress ycsb run a --target mysql://bench@127.0.0.1:3306/ycsb --records 1000000 --threads 32 --time 60
  benchpress ycsb run b --target postgres://bench@db:5432/ycsb --operations 1000000 --threads 16 --rate 20000 --json b.json
  benchpress ycsb run custom --properties myworkload --threads 8 -p readproportion=0.9 -p updateproportion=0.1`,
	Variant: workloadArg,
	New:     NewRunOptions,
}
