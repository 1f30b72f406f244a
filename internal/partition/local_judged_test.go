package partition

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchpress/internal/results"
)

// fakeChild writes a shell script standing in for the binary: it saves a
// result with the given status at its --json path and exits with code.
func fakeChild(t *testing.T, status string, code int) string {
	t.Helper()
	return fakeChildRunning(t, "", status, code)
}

// fakeChildRunning is fakeChild running the shell line first before it
// saves its result ("" for none).
func fakeChildRunning(t *testing.T, first, status string, code int) string {
	t.Helper()
	script := `#!/bin/sh
out=""
while [ $# -gt 0 ]; do
  if [ "$1" = "--json" ]; then out="$2"; fi
  shift
done
` + first + `
printf '{"format_version":1,"workload":"synthetic","status":"` + status + `"}' > "$out"
echo "benchpress: run judged" >&2
exit ` + string(rune('0'+code/10)) + string(rune('0'+code%10)) + "\n"
	p := filepath.Join(t.TempDir(), "child.sh")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// A partition that ran to its end and was judged (failed check 8, verdict
// failed 10 or degraded 11) is merged like the others: the merged verdict
// sets the exit code. A child without an ok result fails the run.
func TestRunLocalMergesJudgedPartitions(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	tests := []struct {
		name    string
		status  string
		code    int
		wantErr bool
	}{
		{"ok", "ok", 0, false},
		{"check failed", "ok", 8, false},
		{"verdict failed, run ended", "ok", 10, false},
		{"degraded", "ok", 11, false},
		{"stopped by a fatal error", "failed", 10, true},
		{"other failure", "ok", 1, true},
		{"bad input", "ok", 2, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var errb bytes.Buffer
			var parts []*results.Run
			merge := func(p []*results.Run) (*results.Run, error) { parts = p; return &results.Run{}, nil }
			_, err := RunLocal(context.Background(), &Flags{Processes: 2},
				Local{Executable: fakeChild(t, tc.status, tc.code), Children: func() []string { return []string{"x", "run"} }, Err: &errb, Quiet: true, Merge: merge})
			if tc.wantErr {
				var ce *ChildError
				if !errors.As(err, &ce) || !strings.Contains(err.Error(), "nothing merged") {
					t.Fatalf("err %v, want a ChildError", err)
				}
				// The directory stays, named, with the children's stderr
				// (the first to fail wrote its line; the other may have
				// been stopped before it wrote anything).
				t.Cleanup(func() { os.RemoveAll(ce.Dir) })
				var logs string
				for i := 0; i < 2; i++ {
					b, _ := os.ReadFile(filepath.Join(ce.Dir, fmt.Sprintf("part-%d.log", i)))
					logs += string(b)
				}
				if ce.Dir == "" || !strings.Contains(err.Error(), ce.Dir) || !strings.Contains(logs, "run judged") {
					t.Fatalf("err %v: kept directory %q, logs %q", err, ce.Dir, logs)
				}
				return
			}
			if err != nil {
				t.Fatalf("err %v (%s)", err, errb.String())
			}
			if len(parts) != 2 || parts[0].Status != "ok" || parts[1].Status != "ok" {
				t.Fatalf("parts %+v", parts)
			}
		})
	}
}

// A refused merge keeps the partitions' files and says where they are.
func TestLocalMergeRefusedKeepsFiles(t *testing.T) {
	var errb bytes.Buffer
	refused := errors.New("windows do not line up")
	_, err := RunLocal(context.Background(), &Flags{Processes: 2},
		Local{Executable: fakeChild(t, "ok", 0), Children: func() []string { return []string{"x", "run"} }, Err: &errb, Quiet: true,
			Merge: func([]*results.Run) (*results.Run, error) { return nil, refused }})
	var me *MergeError
	if !errors.As(err, &me) || !errors.Is(err, refused) || !strings.Contains(err.Error(), me.Dir) {
		t.Fatalf("err %v, want a MergeError naming the kept directory", err)
	}
	t.Cleanup(func() { os.RemoveAll(me.Dir) })
	for i := 0; i < 2; i++ {
		if _, err := results.Read(filepath.Join(me.Dir, fmt.Sprintf("part-%d.json", i))); err != nil {
			t.Errorf("partition %d's file: %v", i, err)
		}
	}
}

// A partition that fails while later ones are still being started stops
// the rest: the run reports that partition's failure, not the cancelled
// start of a later one.
func TestRunLocalEarlyFailureIsTheRunsError(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	var errb bytes.Buffer
	_, err := RunLocal(context.Background(), &Flags{Processes: 64},
		Local{Executable: fakeChild(t, "ok", 1), Children: func() []string { return []string{"x", "run"} }, Err: &errb, Quiet: true,
			Merge: func([]*results.Run) (*results.Run, error) { return &results.Run{}, nil }})
	var ce *ChildError
	if !errors.As(err, &ce) || ce.ExitCode() != 1 || !strings.Contains(err.Error(), "run judged") {
		t.Fatalf("err %v, want the first partition's ChildError", err)
	}
	os.RemoveAll(ce.Dir)
}
