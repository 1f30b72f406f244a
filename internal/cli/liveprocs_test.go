package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMetricsAddrWithProcessesRefused: --metrics-addr with a run that
// happens in local child processes (--processes, a plan's processes:) is
// bad input, refused before anything is served: this process would serve
// none of the run's figures (the children do not get --metrics-addr, they
// would all bind one address). The refusal says what to do instead.
func TestMetricsAddrWithProcessesRefused(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite://" + filepath.Join(dir, "x.db")
	plan := func(name, extra string) string {
		p := filepath.Join(dir, name)
		src := "name: p\ntargets: {a: '" + db + "'}\ndefaults: {workload: tpcc, warmup: 0s, duration: 1s" + extra + "}\nladder: [2]\ncases: [{id: A}]\n"
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	local, single := plan("local.yaml", ", processes: 2"), plan("single.yaml", "")
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string // in stderr
	}{
		{"tpcc run", []string{"tpcc", "run", "--target", db, "--processes", "2", "--metrics-addr", "127.0.0.1:0"}, 2,
			"--metrics-addr cannot serve a run with --processes"},
		{"sysbench run", []string{"sysbench", "run", "oltp_point_select", "--target", db, "--processes", "2", "--metrics-addr", "127.0.0.1:0"}, 2,
			"--partition I/N --run-id ID, each with its own --metrics-addr"},
		{"sweep with processes:", []string{"sweep", local, "--dry-run", "--metrics-addr", "127.0.0.1:0"}, 2,
			"case(s) A with processes:"},
		{"sweep without", []string{"sweep", single, "--dry-run", "--metrics-addr", "127.0.0.1:0"}, 0, "live metrics on"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, nil, tc.args...)
			if code != tc.wantCode || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit %d saying %q", code, stderr, tc.wantCode, tc.want)
			}
			if tc.wantCode != 0 && strings.Contains(stderr, "live metrics on") {
				t.Errorf("served live metrics before refusing:\n%s", stderr)
			}
		})
	}
}
