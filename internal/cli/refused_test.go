package cli

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchpress/internal/results"
)

// A run refused at start still writes --json: verdict failed, the error,
// the password redacted, and a file left at the path by an earlier run is
// replaced, so that a script never reads a stale result as this run's.
func TestRefusedRunWritesJSON(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a port nobody serves
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	const pw = "s3cret-pw"
	for _, tc := range []struct {
		name, workload string
		args           []string
	}{
		{"tpcc", "tpcc", []string{"tpcc", "run", "--target", "mysql://bench:" + pw + "@" + addr + "/bp", "--warehouses", "1", "--terminals", "1", "--duration", "1s"}},
		{"sysbench", "sysbench/oltp_point_select", []string{"sysbench", "run", "oltp_point_select", "--target", "postgres://bench:" + pw + "@" + addr + "/bp", "--threads", "1", "--time", "1"}},
		{"ycsb", "ycsb/a", []string{"ycsb", "run", "a", "--target", "mysql://bench:" + pw + "@" + addr + "/bp", "--threads", "1", "--time", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.json")
			if err := os.WriteFile(path, []byte(`{"status":"ok","verdict":"ok"}`), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append(tc.args, "--json", path)
			_, stderr, code := runCLI(t, nil, args...)
			if code == 0 {
				t.Fatalf("exit 0 against a closed port; stderr %s", stderr)
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(raw), pw) {
				t.Fatalf("the password is in the saved result: %s", raw)
			}
			r, err := results.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != "failed" || r.Verdict != results.VerdictFailed || r.Error == "" || r.Workload != tc.workload {
				t.Fatalf("saved %q verdict %q error %q workload %q; want failed, failed, the error, %q",
					r.Status, r.Verdict, r.Error, r.Workload, tc.workload)
			}
		})
	}
}
