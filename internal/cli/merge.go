package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"benchpress/internal/console"
	"benchpress/internal/partition"
	"benchpress/internal/registry"
	"benchpress/internal/results"
)

// newMergeCmd is `benchpress merge OUT.json PART...`.
func newMergeCmd(app *App) *cobra.Command {
	var minSuccess float64
	cmd := &cobra.Command{
		Use:   "merge OUT.json PART...",
		Short: "Merge the partitions of a partitioned run into one exact result",
		Long: `Merge the results of all partitions of one run (--partition I/N) into one
result, as if one process had run every terminal: counts are summed and the
HDR histograms merged, so percentiles are those of all samples (never
averaged); tpmC, QPS, the TPC-C audit and response-time checks are recomputed
from the merged counts; the per-second series are summed by wall-clock second;
each partition's driver CPU, clock skew and window are kept under "merged".

A PART is a result file (--json FILE) or any text holding the one-line results
that --json - prints (e.g. the output of kubectl logs of every pod of the Job).

merge refuses (exit 2) inputs that are not one run: a different workload,
configuration (scale, terminals, mix, seed...), run id or partition count,
overlapping or missing partitions, a partition that did not end ok, or windows
further apart than the recorded clock uncertainty. The merged file is a normal
result: report, compare and sweeps read it as any other. The merged verdict
sets the exit code as a run's does (8, 10, 11); its success rate is judged
against the --min-success the partitions ran with (saved in their results)
unless --min-success is given here.`,
		Example: `  benchpress merge merged.json part-0.json part-1.json part-2.json part-3.json
  kubectl logs -l job-name=tpcc-run --tail=-1 --max-log-requests=16 > parts.log
  benchpress merge merged.json parts.log`,
		Args: usageArgs(cobra.MinimumNArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("min-success") {
				minSuccess = results.MinSuccessUnset
			} else if minSuccess < 0 || minSuccess > 100 {
				return usagef("--min-success must be within 0..100 (got %g)", minSuccess)
			}
			var parts []*results.Run
			for _, p := range args[1:] {
				rs, err := results.ReadAll(p)
				if err != nil {
					return &UsageError{Err: err}
				}
				parts = append(parts, rs...)
			}
			merged, err := mergeRuns(parts, minSuccess)
			if err != nil {
				return err
			}
			// As every run: the notes, the open-loop figures and the
			// verdict on the console, and a merged verdict other than ok
			// is the exit code (8, 10, 11), never 0.
			console.Summary(app.Out, merged)
			console.PrintWatch(app.Out, merged)
			console.Partitions(app.Out, merged)
			console.Verdict(app.Out, merged)
			if err := writeJSON(app, args[0], merged); err != nil {
				return err
			}
			return verdictError(merged)
		},
	}
	cmd.Flags().Float64Var(&minSuccess, "min-success", 0,
		"success rate (%) below which the merged verdict is \"failed\" (exit code 10; default: the partitions' own --min-success)")
	return cmd
}

// mergeRuns merges parts with the workload's own figures recomputed and
// judges the result against minSuccess (results.MinSuccessUnset: the
// partitions' own bound); refusals are usage errors (exit 2).
func mergeRuns(parts []*results.Run, minSuccess float64) (*results.Run, error) {
	opts := results.MergeOptions{Criteria: results.Criteria{MinSuccessPct: minSuccess}}
	// A result that is not a partition that ended ok is refused by Merge;
	// its configuration may be incomplete, so nothing is rebuilt from it.
	if len(parts) > 0 && parts[0].Partition != nil && parts[0].Status == "ok" {
		if sum, names, err := registry.MergeSummarizer(parts[0]); err != nil {
			return nil, err
		} else if sum != nil {
			opts.Summarize, opts.ExtraNames = sum, names
		}
	}
	merged, err := results.Merge(parts, opts)
	if errors.Is(err, results.ErrNotMergeable) {
		return nil, &UsageError{Err: fmt.Errorf("merge: %w", err)}
	}
	return merged, err
}

// runLocal runs the partitions of a run as local child processes of this
// binary (partition.RunLocal) and merges their results.
func runLocal(ctx context.Context, app *App, p *partition.Flags, children childCmd, quiet bool) (*results.Run, error) {
	merge := func(parts []*results.Run) (*results.Run, error) { return mergeRuns(parts, app.policy.minSuccess) }
	merged, err := partition.RunLocal(ctx, p, partition.Local{Executable: app.Executable, Children: children.args, Env: children.env, Environ: app.Environ,
		Err: app.Err, Quiet: quiet, Merge: merge})
	if errors.Is(err, partition.ErrLocalInterrupted) {
		return nil, ErrInterrupted
	}
	return merged, err
}

// localWindow is a merged run's measurement window on this machine's clock:
// from the first partition's window start to the last one's end (saved on
// the server's clock, each with its own skew to its driver's clock); false
// when r holds no partition windows.
func localWindow(r *results.Run) (from, to time.Time, ok bool) {
	if r == nil || r.Merged == nil {
		return from, to, false
	}
	for _, p := range r.Merged.Partitions {
		if p.WindowFrom.IsZero() || !p.WindowTo.After(p.WindowFrom) {
			continue
		}
		skew := time.Duration(p.ClockSkewMS * float64(time.Millisecond))
		f, t := p.WindowFrom.Add(-skew), p.WindowTo.Add(-skew)
		if !ok || f.Before(from) {
			from = f
		}
		if !ok || t.After(to) {
			to = t
		}
		ok = true
	}
	return from, to, ok
}
