package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"benchpress/internal/report"
	"benchpress/internal/sweep"
)

// newSweepCmd is `benchpress sweep PLAN.yaml`: run every case x concurrency
// step of a plan through steps, then write the report.
func newSweepCmd(app *App, steps sweep.StepRunner) *cobra.Command {
	var (
		out      string
		resume   bool
		dryRun   bool
		noReport bool
	)
	cmd := &cobra.Command{
		Use:   "sweep PLAN.yaml",
		Short: "Run a test plan: cases x concurrency ladder, then the report",
		Long: `Run every case of a plan at every step of its concurrency ladder, saving each
step as DIR/<case>/<concurrency>.json the moment it ends, plus DIR/plan.yaml
(resolved, passwords removed) and DIR/environment.json; then write the report
(report.md, report.html, charts/) unless --no-report.

A plan file:

  name: poc
  targets:
    direct: mysql://bench@10.0.0.5:3306/tpcc
    proxy:  {url: "mysql://bench@10.0.0.6:3307,10.0.0.7:3307/tpcc", password_env: BENCH_PW}
  defaults:
    workload: tpcc            # tpcc | sysbench/<test> | ycsb/<a-f|custom>
    warehouses: 100           # any other key is an option of '<workload> run' (its flag name)
    warmup: 30s
    duration: 2m
    cooldown: 10s             # pause between steps
  ladder: [1, 8, 16, 64, 128, 256, 512, 1000, 1024, 2048]
  cases:
    - id: T1-1
      target: direct
    - id: T1-2
      target: proxy
      overrides: {ladder: [64, 256]}
  compare:
    - [T1-1, T1-2]                                  # or {name: proxy-overhead, base: T1-1, other: T1-2}
  hosts:                      # watched in every step besides the load machine
    db-1: {role: storage, url: [http://10.0.0.5:9100/metrics, http://10.0.0.5:9256/metrics]}

Passwords come from the environment: ${BENCH_PW} inside a URL or password_env.
The plan is checked with the run commands' own rules (workloads, option names
and values, target URLs) before anything runs; every problem is reported at
once with its line (exit code 2), --dry-run included. A defaults option goes
to the cases whose workload has it; the ladder sets terminals/threads. A failed step is
recorded with status "failed" and the sweep goes on; the sweep exits 10 when
a step failed and 11 when a step's verdict is "degraded" (the report marks
those steps and never names them peak). Ctrl-C keeps every finished step (and
the interrupted one); --resume skips steps already ok (verdict ok: failed and
degraded steps run again) and refuses a plan that
differs from the directory's plan.yaml.`,
		Example: `  benchpress sweep poc.yaml --dry-run
  BENCH_PW=secret benchpress sweep poc.yaml --out results/poc
  benchpress sweep poc.yaml --out results/poc --resume`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			plan, err := sweep.LoadPlan(args[0])
			if err != nil {
				var pe *sweep.PlanError
				if errors.As(err, &pe) {
					return pe
				}
				return usagef("%v", err)
			}
			for _, w := range plan.Warnings {
				fmt.Fprintln(app.Err, "warning:", w)
			}
			if err := watchPlanHosts(app, plan.Hosts); err != nil {
				return err
			}
			if dryRun {
				sweep.PrintDryRun(app.Out, plan)
				return nil
			}
			if out == "" {
				out = sweep.DefaultOut(filepath.Join("results", plan.Name+"-"+time.Now().Format("2006-01-02")), resume, sweep.HoldsSweep)
			}
			fmt.Fprintf(app.Err, "sweep %s: %d steps, about %s; results in %s\n",
				plan.Name, len(plan.Matrix()), sweep.FmtDur(sweep.Estimate(plan.Matrix()).Round(time.Second)), out)
			res, runErr := sweep.Run(cmd.Context(), plan, out, steps, sweep.Options{
				Resume: resume, Progress: app.Err, Version: app.Version, Getenv: app.Getenv,
			})
			if runErr != nil && res.Ran+res.Skipped == 0 {
				return runErr
			}
			fmt.Fprintf(app.Err, "sweep %s: %d ran, %d skipped, %d failed, %d degraded of %d\n", plan.Name, res.Ran, res.Skipped, res.Failed, res.Degraded, res.Planned)
			if !noReport {
				files, err := report.Generate(out)
				if err != nil {
					// The steps' verdict keeps its exit code (10, 11)
					// when the report cannot be written.
					if runErr == nil {
						runErr = sweepVerdict(res)
					}
					return errors.Join(runErr, err)
				}
				for _, f := range files[:2] {
					fmt.Fprintln(app.Out, f)
				}
			}
			if runErr != nil && res.Interrupted {
				return fmt.Errorf("%w: %v", ErrInterrupted, runErr)
			}
			if runErr == nil {
				runErr = sweepVerdict(res)
			}
			return runErr
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "out", "o", "", "results directory (default results/<plan name>-<date>, or -2, -3, ... when that holds an earlier sweep; with --resume the last of them); a directory holding an earlier sweep is refused without --resume")
	f.BoolVar(&resume, "resume", false, "skip steps whose result exists with status ok and verdict ok (failed and degraded steps run again)")
	f.BoolVar(&dryRun, "dry-run", false, "print the matrix and estimated duration, run nothing")
	f.BoolVar(&noReport, "no-report", false, "do not write the report at the end")
	return cmd
}
