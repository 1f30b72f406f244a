package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"benchpress/internal/console"
	"benchpress/internal/report"
	"benchpress/internal/results"
	"benchpress/internal/target"
	"benchpress/internal/workload/tpcc"
)

// quickstartDir is where quickstart keeps its database and results.
const quickstartDir = "benchpress-data"

func newQuickstartCmd(app *App) *cobra.Command {
	var duration time.Duration
	var terminals int
	cmd := &cobra.Command{
		Use:   "quickstart",
		Short: "Load 1 TPC-C warehouse into embedded SQLite, run it, check it and report (no server needed)",
		Long: `quickstart needs nothing but this binary. It creates a SQLite database under
./benchpress-data/, loads 1 TPC-C warehouse, runs 2 terminals for about 20 seconds,
verifies the consistency conditions and prints the summary. The result is saved
as ./benchpress-data/quickstart/quickstart.json.`,
		Example: `  benchpress quickstart
  benchpress quickstart --duration 60s --terminals 4`,
		Args: noArgsUsage,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			dbPath := filepath.Join(quickstartDir, "quickstart.db")
			url := "sqlite://" + dbPath
			fmt.Fprintf(app.Err, "benchpress quickstart: TPC-C, 1 warehouse, embedded SQLite at %s\n", dbPath)

			tf := target.Flags{URL: url, StatementMode: "prepared", ConnTimeout: 10 * time.Second}
			conn, err := tf.Connect(app.env().Target)
			if err != nil {
				return err
			}
			names, _ := tpcc.NamesFor("standard")
			start := time.Now()
			if _, err := tpcc.Prepare(ctx, conn, tpcc.PrepareConfig{
				Warehouses: 1, Threads: 1, Seed: 1, Drop: true, Names: names, Progress: console.LoadProgress(app.Err, app.IsTTY),
			}); err != nil {
				conn.Close()
				if ctx.Err() != nil {
					return ErrInterrupted
				}
				return fmt.Errorf("quickstart prepare: %w", err)
			}
			conn.Close()
			fmt.Fprintf(app.Err, "loaded 1 warehouse in %s\n", time.Since(start).Round(100*time.Millisecond))

			// The run is `tpcc run` with these flags.
			jsonPath := filepath.Join(quickstartDir, "quickstart", "quickstart.json")
			opts := tpcc.NewRunOptions()
			fs := pflag.NewFlagSet("quickstart", pflag.ContinueOnError)
			opts.Flags(fs)
			if err := fs.Parse([]string{"--target", url, "--terminals", fmt.Sprint(terminals), "--warmup", "3s",
				"--duration", duration.String(), "--report-interval", "5s", "--max-retries", "5", "--check"}); err != nil {
				return &UsageError{Err: err}
			}
			run, _, err := runOptions(ctx, app, opts, "", fs, false, childCmd{})
			if run != nil {
				results.Rejudge(run)
				console.Summary(app.Out, run)
				console.PrintWatch(app.Out, run)
				console.Verdict(app.Out, run)
				err = withJSON(withVerdict(run, err), writeJSON(app, jsonPath, run))
			}
			if err != nil {
				return err
			}
			if run.Summary.TpmC <= 0 {
				return fmt.Errorf("quickstart: no New-Order completed")
			}
			fmt.Fprintln(app.Out, "\nquickstart passed: consistency check OK")
			return afterQuickstart(app, run)
		},
	}
	cmd.Flags().DurationVar(&duration, "duration", 20*time.Second, "measurement window")
	cmd.Flags().IntVar(&terminals, "terminals", 2, "terminals")
	return cmd
}

// afterQuickstart renders the report of the quickstart run and says where it is.
func afterQuickstart(app *App, run *results.Run) error {
	files, err := report.Generate(filepath.Join(quickstartDir, "quickstart"))
	if err != nil {
		return fmt.Errorf("quickstart report: %w", err)
	}
	for _, f := range files[:min(2, len(files))] {
		fmt.Fprintf(app.Out, "report: %s\n", f)
	}
	_ = run
	return nil
}
