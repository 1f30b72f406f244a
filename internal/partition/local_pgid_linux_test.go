package partition

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"benchpress/internal/results"
)

// TestChildrenHaveTheirOwnProcessGroup: the children of --processes are
// not in the parent's process group, so that a terminal's Ctrl-C (sent to
// the foreground group) reaches the parent alone and each child gets one
// SIGINT, the parent's, and drains and saves its result instead of dying
// of a second signal.
func TestChildrenHaveTheirOwnProcessGroup(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	dir := t.TempDir()
	// The child records its process group (field 5 of /proc/self/stat,
	// the shell's own) and saves an ok result at its --json path.
	exe := fakeChildRunning(t, `cut -d' ' -f5 /proc/$$/stat > "`+dir+`/pgid-$$"`, "ok", 0)
	merge := func([]*results.Run) (*results.Run, error) { return &results.Run{}, nil }
	if _, err := RunLocal(context.Background(), &Flags{Processes: 2},
		Local{Executable: exe, Children: func() []string { return []string{"x", "run"} }, Err: io.Discard, Quiet: true, Merge: merge}); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "pgid-*"))
	if err != nil || len(files) != 2 {
		t.Fatalf("%d children recorded their group (%v), want 2", len(files), err)
	}
	mine := syscall.Getpgrp()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pgid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatalf("%s: %q", f, b)
		}
		pid := strings.TrimPrefix(filepath.Base(f), "pgid-")
		if pgid == mine || strconv.Itoa(pgid) != pid {
			t.Errorf("child %s is in process group %d (the parent's is %d), want its own", pid, pgid, mine)
		}
	}
}
