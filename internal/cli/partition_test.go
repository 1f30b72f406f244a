package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"benchpress/internal/results"
	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// runCLIExe is runCLI with App.Executable set to this test binary acting
// as benchpress (TestMain), for --processes.
func runCLIExe(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	t.Setenv(envChild, "1")
	// A failed child keeps the partitions' directory (for the user to
	// read): in the test's own temporary directory, removed with it.
	t.Setenv("TMPDIR", t.TempDir())
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	app := &App{Out: &out, Err: &errb, Getenv: func(string) string { return "" }, Version: "test", Executable: exe, Environ: os.Environ}
	root := NewRoot(app)
	root.SetArgs(args)
	err = root.ExecuteContext(context.Background())
	if err != nil {
		errb.WriteString("benchpress: " + err.Error() + "\n")
	}
	return out.String(), errb.String(), ExitCode(err)
}

// ordersOf counts the orders rows: each committed New-Order adds one.
func ordersOf(t *testing.T, tg *target.Target) int64 {
	t.Helper()
	_, conn := testdb.Connect(t, tg, target.Options{})
	rows, err := conn.Query(context.Background(), "SELECT COUNT(*) FROM orders")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var n int64
	if !rows.Next() || rows.Scan(&n) != nil {
		t.Fatalf("count orders: %v", rows.Err())
	}
	return n
}

// TestPartitionedTPCC runs 4 warehouses as one process and as 2 and 3
// local partitions on MariaDB and PostgreSQL: the merged New-Order count
// equals what the database gained, the partitions' windows line up within
// the recorded tolerance, every terminal ran exactly once, and a partition
// that never arrives at the barrier stops the run with exit code 12.
func TestPartitionedTPCC(t *testing.T) {
	for _, tg := range testdb.All(t, "cli_partition") {
		if tg.Kind == target.SQLite {
			continue
		}
		t.Run(string(tg.Kind), func(t *testing.T) {
			url := urlOf(tg)
			if _, stderr, code := runCLI(t, nil, "tpcc", "prepare", "--target", url, "--warehouses", "4", "--threads", "2", "--drop"); code != 0 {
				t.Fatalf("prepare: exit %d: %s", code, stderr)
			}
			for _, procs := range []int{1, 2, 3} {
				t.Run(fmt.Sprintf("processes=%d", procs), func(t *testing.T) {
					out := filepath.Join(t.TempDir(), "r.json")
					args := []string{"tpcc", "run", "--target", url, "--terminals", "6", "--warmup", "0s", "--duration", "2s",
						"--report-interval", "0", "--json", out}
					if procs > 1 {
						args = append(args, "--processes", fmt.Sprint(procs))
					}
					before := ordersOf(t, tg)
					stdout, stderr, code := runCLIExe(t, args...)
					if code != 0 {
						t.Fatalf("exit %d: %s", code, stderr)
					}
					gained := ordersOf(t, tg) - before
					r, err := results.Read(out)
					if err != nil {
						t.Fatal(err)
					}
					if r.Summary.NewOrderCommitted != gained || gained == 0 {
						t.Errorf("New-Order committed %d, the database gained %d orders", r.Summary.NewOrderCommitted, gained)
					}
					if procs == 1 {
						if r.Merged != nil || r.Partition != nil {
							t.Errorf("a single process marked as partitioned")
						}
						return
					}
					m := r.Merged
					if m == nil || len(m.Partitions) != procs {
						t.Fatalf("merged record %+v", m)
					}
					if m.WindowSpreadMS > m.ToleranceMS {
						t.Errorf("windows %.1f ms apart, tolerance %.1f ms", m.WindowSpreadMS, m.ToleranceMS)
					}
					// The parent watched the machine its children shared,
					// over the merged window.
					if r.Watch == nil || len(r.Watch.Hosts) == 0 || r.Watch.Hosts[0].Role != "load" || r.Watch.Hosts[0].Samples == 0 {
						t.Errorf("merged run's watch %+v: want the load machine watched by the parent", r.Watch)
					}
					terms, lastWH := 0, 0
					for _, p := range m.Partitions {
						terms += p.Terminals
						if p.WarehouseFrom != lastWH+1 {
							t.Errorf("partition %d starts at warehouse %d after %d", p.Index, p.WarehouseFrom, lastWH)
						}
						lastWH = p.WarehouseTo
					}
					if terms != 6 || lastWH != 4 {
						t.Errorf("partitions ran %d terminals over warehouses up to %d, want 6 over 4", terms, lastWH)
					}
					if !strings.Contains(stdout, fmt.Sprintf("merged from %d partitions", procs)) || !strings.Contains(stdout, "tpmC") {
						t.Errorf("summary:\n%s", stdout)
					}
				})
			}

			t.Run("partitions on two machines and merge", func(t *testing.T) {
				// Two in-process partitions as two machines would run them:
				// result lines on stdout (--json -), merged from the "logs".
				runID := fmt.Sprintf("machines-%d", time.Now().UnixNano())
				outs := make([]string, 2)
				codes := make([]int, 2)
				errs := make([]string, 2)
				before := ordersOf(t, tg)
				done := make(chan int)
				for i := 0; i < 2; i++ {
					go func() {
						outs[i], errs[i], codes[i] = runCLI(t, nil, "tpcc", "run", "--target", url, "--terminals", "4", "--warmup", "0s",
							"--duration", "2s", "--report-interval", "0", "--partition", fmt.Sprintf("%d/2", i), "--run-id", runID, "--json", "-")
						done <- i
					}()
				}
				<-done
				<-done
				for i := range codes {
					if codes[i] != 0 {
						t.Fatalf("partition %d: exit %d: %s", i, codes[i], errs[i])
					}
				}
				gained := ordersOf(t, tg) - before
				logs := filepath.Join(t.TempDir(), "pods.log")
				if err := os.WriteFile(logs, []byte(outs[0]+outs[1]), 0o644); err != nil {
					t.Fatal(err)
				}
				merged := filepath.Join(t.TempDir(), "merged.json")
				if _, stderr, code := runCLI(t, nil, "merge", merged, logs); code != 0 {
					t.Fatalf("merge: exit %d: %s", code, stderr)
				}
				r, err := results.Read(merged)
				if err != nil {
					t.Fatal(err)
				}
				if r.Summary.NewOrderCommitted != gained || r.Merged == nil || r.Merged.RunID != runID {
					t.Errorf("merged New-Order committed %d, database gained %d; merged %+v", r.Summary.NewOrderCommitted, gained, r.Merged)
				}
				// One partition alone, or the same one twice, is refused and
				// nothing is written.
				p0 := filepath.Join(t.TempDir(), "p0.log")
				if err := os.WriteFile(p0, []byte(outs[0]), 0o644); err != nil {
					t.Fatal(err)
				}
				bad := filepath.Join(t.TempDir(), "bad.json")
				for _, args := range [][]string{{p0}, {p0, p0}} {
					_, stderr, code := runCLI(t, nil, append([]string{"merge", bad}, args...)...)
					if code != ExitUsage || !strings.Contains(stderr, "do not belong together") {
						t.Errorf("merge %v: exit %d: %s", args, code, stderr)
					}
					if _, err := os.Stat(bad); !os.IsNotExist(err) {
						t.Errorf("a refused merge wrote %s", bad)
					}
				}
			})

			t.Run("sweep step partitioned", func(t *testing.T) {
				dir := t.TempDir()
				plan := filepath.Join(dir, "plan.yaml")
				body := "name: split\ndescription: one step as 2 local partitions\ntargets:\n  db: " + url +
					"\ndefaults:\n  workload: tpcc\n  warmup: 0s\n  duration: 2s\nladder: [4]\ncases:\n  - id: two\n    description: two partitions\n    target: db\n    processes: 2\n"
				if err := os.WriteFile(plan, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
				out := filepath.Join(dir, "out")
				if _, stderr, code := runCLIExe(t, "sweep", plan, "--out", out); code != 0 {
					t.Fatalf("sweep: exit %d: %s", code, stderr)
				}
				r, err := results.Read(filepath.Join(out, "two", "4.json"))
				if err != nil {
					t.Fatal(err)
				}
				if r.Status != "ok" || r.Merged == nil || len(r.Merged.Partitions) != 2 || r.Summary.TpmC <= 0 {
					t.Fatalf("step: status %s, merged %+v, tpmC %v", r.Status, r.Merged, r.Summary.TpmC)
				}
				if _, stderr, code := runCLI(t, nil, "report", out); code != 0 {
					t.Fatalf("report: exit %d: %s", code, stderr)
				}
				md, err := os.ReadFile(filepath.Join(out, "report.md"))
				if err != nil || !strings.Contains(string(md), "2 partitions merged") {
					t.Errorf("report does not note the merged step (%v)", err)
				}
			})

			t.Run("partition never arrives", func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "p0.json")
				const timeout = 1500 * time.Millisecond
				t0 := time.Now()
				_, stderr, code := runCLI(t, nil, "tpcc", "run", "--target", url, "--terminals", "4", "--duration", "2s",
					"--partition", "0/2", "--run-id", fmt.Sprintf("lonely-%d", time.Now().UnixNano()), "--barrier-timeout", timeout.String(), "--json", out)
				if code != ExitBarrier {
					t.Fatalf("exit %d, want %d: %s", code, ExitBarrier, stderr)
				}
				if took := time.Since(t0); took > timeout+10*time.Second {
					t.Errorf("took %s with a %s barrier timeout", took, timeout)
				}
				if lines := strings.Split(strings.TrimSpace(stderr), "\n"); !strings.Contains(lines[len(lines)-1], "partition(s) 1 of 2 never arrived") {
					t.Errorf("last line %q", lines[len(lines)-1])
				}
				refusedOnly(t, out)
			})

			t.Run("child fails", func(t *testing.T) {
				// 1 warehouse cannot be split in 2: both children refuse, the
				// parent merges nothing and keeps their exit code.
				out := filepath.Join(t.TempDir(), "m.json")
				_, stderr, code := runCLIExe(t, "tpcc", "run", "--target", url, "--warehouses", "1", "--terminals", "2",
					"--duration", "1s", "--processes", "2", "--json", out)
				if code != ExitUsage || !strings.Contains(stderr, "nothing merged") {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				// The children's files are kept, the directory named.
				m := regexp.MustCompile(`kept in (\S+)\)`).FindStringSubmatch(stderr)
				if m == nil {
					t.Fatalf("no kept directory named: %s", stderr)
				}
				a, _ := os.ReadFile(filepath.Join(m[1], "part-0.log"))
				b, _ := os.ReadFile(filepath.Join(m[1], "part-1.log"))
				if len(a)+len(b) == 0 {
					t.Errorf("no child's stderr kept in %s", m[1])
				}
				os.RemoveAll(m[1])
				refusedOnly(t, out)
			})
		})
	}
}

// refusedOnly fails t unless path is absent or holds only the record of a
// run that produced no result (results.Refused): verdict failed, no figures.
func refusedOnly(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return
	}
	r, err := results.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "failed" || r.Verdict != results.VerdictFailed || r.Summary.Transactions != 0 || r.Summary.TpmC != 0 {
		t.Errorf("a result was written for a run that never ran: status %q verdict %q, %d transactions", r.Status, r.Verdict, r.Summary.Transactions)
	}
}
