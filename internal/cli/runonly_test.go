package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The commands around a run leave the run's options out of their --help
// and still accept them, so that one sysbench-style command line serves
// prepare, run and cleanup (registry.Command.RunOnly).
func TestRunOnlyFlagsHiddenButAccepted(t *testing.T) {
	for _, tc := range []struct {
		cmd            []string
		shown, notShow []string
	}{
		{[]string{"sysbench", "prepare"}, []string{"--tables", "--table-size", "--rand-type", "--auto-inc", "--threads"},
			[]string{"--point-selects", "--skip-trx", "--rand-seed", "--socket-io", "--time", "--json", "--min-success", "--no-watch"}},
		{[]string{"sysbench", "cleanup"}, []string{"--tables", "--target"},
			[]string{"--table-size", "--rand-type", "--range-size", "--socket-io", "--threads", "--time", "--json", "--min-success"}},
		{[]string{"sysbench", "run"}, []string{"--point-selects", "--rand-seed", "--socket-io", "--table-size"}, nil},
		{[]string{"tpcc", "prepare"}, []string{"--warehouses", "--statement-mode"}, []string{"--socket-io"}},
		{[]string{"ycsb", "load"}, []string{"--records"}, []string{"--socket-io"}},
	} {
		t.Run(strings.Join(tc.cmd, "_"), func(t *testing.T) {
			out, stderr, code := runCLI(t, nil, append(tc.cmd, "--help")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, f := range tc.shown {
				if !strings.Contains(out, f+" ") {
					t.Errorf("%s missing from --help", f)
				}
			}
			for _, f := range tc.notShow {
				if strings.Contains(out, f+" ") {
					t.Errorf("%s in --help: a run-only option", f)
				}
			}
		})
	}
	db := "sqlite://" + filepath.Join(t.TempDir(), "sb.db")
	// The run's whole command line, its timing and output flags included
	// (ignored: no result is written).
	never := filepath.Join(t.TempDir(), "never.json")
	common := []string{"--target", db, "--tables", "1", "--table-size", "50", "--point-selects", "3", "--skip-trx", "on", "--socket-io", "blocking", "--rand-seed", "7",
		"--threads", "1", "--time", "10", "--warmup-time", "2", "--report-interval", "1", "--json", never, "--min-success", "50", "--rate", "100",
		"--no-watch", "--watch-interval", "2s", "--metrics-addr", "127.0.0.1:0"}
	for _, sub := range []string{"prepare", "cleanup"} {
		if _, stderr, code := runCLI(t, nil, append([]string{"sysbench", sub, "oltp_read_write"}, common...)...); code != 0 {
			t.Fatalf("sysbench %s with the run's options: exit %d: %s", sub, code, stderr)
		}
	}
	if _, err := os.Stat(never); err == nil {
		t.Errorf("prepare/cleanup wrote the run's --json")
	}
}
