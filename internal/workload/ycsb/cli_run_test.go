package ycsb

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// TestRunLimits: the YCSB client's rules for threads, operationcount and
// maxexecutiontime (moved from the CLI with the options).
func TestRunLimits(t *testing.T) {
	dir := t.TempDir()
	pf := filepath.Join(dir, "w.properties")
	os.WriteFile(pf, []byte("recordcount=50\noperationcount=70\nreadproportion=1\nupdateproportion=0\nthreadcount=3\n"), 0o644)
	cases := []struct {
		name    string
		args    []string
		threads int
		maxOps  int64
		dur     time.Duration
	}{
		{"workload default operationcount", []string{}, 1, 1000, 0},
		{"time alone runs by time", []string{"--time", "5"}, 1, 0, 5 * time.Second},
		{"operations and time", []string{"--time", "5", "--operations", "9"}, 1, 9, 5 * time.Second},
		{"-p operationcount with time", []string{"--duration", "2s", "-p", "operationcount=11"}, 1, 11, 2 * time.Second},
		{"file then flags", []string{"--properties", pf, "--threads", "2"}, 2, 70, 0},
		{"file threadcount", []string{"--properties", pf}, 3, 70, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var o RunOptions
			fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			o.Flags(fs)
			if err := fs.Parse(c.args); err != nil {
				t.Fatal(err)
			}
			if errs := o.Resolve("a", fs); len(errs) > 0 {
				t.Fatal(errs)
			}
			if rc := o.Runner; rc.Terminals != c.threads || rc.MaxOps != c.maxOps || rc.Duration != c.dur {
				t.Fatalf("threads %d maxOps %d duration %s", rc.Terminals, rc.MaxOps, rc.Duration)
			}
		})
	}
}
