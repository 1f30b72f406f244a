package cli

import (
	"context"

	"benchpress/internal/results"
	"benchpress/internal/workload/tpcc"
)

// runLocalTPCC runs tpcc run as local partitions (--processes) and, with
// --check, checks consistency once all of them ended (the children never
// check: one would check while the others still run).
func runLocalTPCC(ctx context.Context, app *App, f *tpccRunFlags, names tpcc.Names, quiet bool) (*results.Run, error) {
	run, err := runLocal(ctx, app, &f.part, []string{"tpcc", "run"}, nil, quiet)
	if run == nil || err != nil || !f.check {
		return run, err
	}
	conn, err := f.tf.connect(app)
	if err != nil {
		return run, err
	}
	defer conn.Close()
	checks, err := runCheck(ctx, conn, names, false)
	run.Checks = append(run.Checks, checks...)
	return run, err
}
