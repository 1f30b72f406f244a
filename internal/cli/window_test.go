package cli

import (
	"fmt"
	"path/filepath"
	"testing"

	"benchpress/internal/results"
	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// TestWindowLengthOneParkedTerminal: a 2 s window of one TPC-C terminal
// (blocking sockets, reads that park in the poller) lasts 2 s. The Go
// runtime delivered the ticker's timers up to 0.9 s late in 4 of 10 such
// runs before the terminals nudged the ticker at the phase edges
// (runner.phaseEdges): six runs make a miss of that rate all but certain
// to show.
func TestWindowLengthOneParkedTerminal(t *testing.T) {
	tg := testdb.For(t, target.MySQL, "cli_window")
	url := urlOf(tg)
	if _, stderr, code := runCLI(t, nil, "tpcc", "prepare", "--target", url, "--warehouses", "1", "--drop"); code != 0 {
		t.Fatalf("prepare: exit %d: %s", code, stderr)
	}
	for i := 0; i < 6; i++ {
		out := filepath.Join(t.TempDir(), fmt.Sprintf("r%d.json", i))
		if _, stderr, code := runCLIExe(t, "tpcc", "run", "--target", url, "--terminals", "1", "--warmup", "0s", "--duration", "2s",
			"--report-interval", "0", "--no-watch", "--json", out); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, stderr)
		}
		r, err := results.Read(out)
		if err != nil {
			t.Fatal(err)
		}
		if d := r.Summary.DurationS; d < 1.9 || d > 2.2 {
			t.Fatalf("run %d: the 2 s window lasted %.3f s (driver %+v)", i, d, r.Driver)
		}
	}
}
