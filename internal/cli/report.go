package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"benchpress/internal/report"
)

// newReportCmd is `benchpress report PATH`: render saved results as
// report.md, report.html and charts/*.svg.
func newReportCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "report PATH",
		Short: "Write the Markdown/HTML performance report of saved results",
		Long: `Render saved results as report.md, a self-contained report.html (inline CSS
and SVG charts, opens offline) and charts/*.svg.

PATH is a sweep directory (plan.yaml, environment.json, <case>/<concurrency>.json),
any directory of run JSON files, or a single run JSON file. The report holds:
  - the test environment (client host, targets, server versions and settings);
  - per case a table in the usual shape: TPC-C concurrency/tpmC/tpmTOTAL/TPS/
    success rate/latency; sysbench threads/TPS/QPS/min/avg/p95/max/errors per s;
    YCSB per operation type ops, ops/s and latency percentiles in microseconds;
  - charts: throughput and p95/p99 latency vs concurrency, throughput over time;
  - each case's peak and saturation point (first step after which more
    concurrency adds less than 5%), both among the steps judged ok: failed,
    degraded and interrupted steps are shown, marked, and never decide them;
  - side-by-side comparisons and the plan's named comparisons
    (overhead = (base - other) / base, speed-up = other / base);
  - TPC-C checks, driver-bound warnings, failed steps, and steps that ran
    part of their statements as text to fit max_prepared_stmt_count.
Output is deterministic: the same results give byte-identical files.`,
		Example: `  benchpress report results/poc-2026-11-22/
  benchpress report results/tpcc-run.json`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			files, err := report.Generate(args[0])
			if err != nil {
				return err
			}
			for _, f := range files {
				fmt.Fprintln(app.Out, f)
			}
			return nil
		},
	}
}
