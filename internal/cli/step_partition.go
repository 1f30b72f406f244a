package cli

import (
	"fmt"

	"github.com/spf13/pflag"

	"benchpress/internal/sweep"
)

// stepRunID makes a plan's run-id (partitioned sweeps: every machine runs
// the plan with its own partition: I/N and the same run-id) unique per
// step, as the barrier accepts each run id once: ID-<case>-<concurrency>.
func stepRunID(fs *pflag.FlagSet, st sweep.Step) {
	if f := fs.Lookup("run-id"); f != nil && f.Changed && f.Value.String() != "" {
		_ = fs.Set("run-id", fmt.Sprintf("%s-%s-%d", f.Value.String(), st.CaseID, st.Concurrency))
	}
}
