package cli

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/sweep"
)

// TestChildArgs: a child gets the parent's command line without the flags
// the parent sets for each child, repeated flags once per value.
func TestChildArgs(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.String("target", "", "")
	fs.Int("threads", 1, "")
	fs.StringArrayP("p", "p", nil, "")
	fs.Int("processes", 0, "")
	fs.String("json", "", "")
	fs.Bool("check", false, "")
	if err := fs.Parse([]string{"--target", "mysql://u@h/db", "--threads", "8", "-p", "a=1", "-p", "b=2,3",
		"--processes", "2", "--json", "out.json", "--check"}); err != nil {
		t.Fatal(err)
	}
	got := flagArgs("ycsb", []string{"a"}, fs)()
	want := []string{"ycsb", "run", "a", "--p=a=1", "--p=b=2,3", "--target=mysql://u@h/db", "--threads=8"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("flagArgs = %q\nwant %q", got, want)
	}

	st := sweep.Step{CaseID: "c1", Workload: "ycsb/a", Target: "mysql://u@h/db", Concurrency: 16,
		Warmup: time.Second, Duration: 5 * time.Second,
		Options: map[string]string{"p": "readproportion=0.9,updateproportion=0.1", "processes": "2", "records": "1000"}}
	args := strings.Join(stepArgs(st), " ")
	for _, w := range []string{"ycsb run a ", "--p=readproportion=0.9 --p=updateproportion=0.1", "--records=1000",
		"--target=mysql://u@h/db", "--threads=16", "--warmup=1s", "--duration=5s", "--report-interval=0"} {
		if !strings.Contains(args, w) {
			t.Errorf("stepArgs = %q lacks %q", args, w)
		}
	}
	if strings.Contains(args, "processes") {
		t.Errorf("stepArgs = %q passes --processes to a child", args)
	}
}
