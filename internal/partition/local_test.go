package partition

import (
	"reflect"
	"testing"

	"github.com/spf13/pflag"
)

// TestChildArgs: a child gets the parent's command line without the flags
// the parent sets for each child and those of the parent alone (every child
// would bind the one --metrics-addr, write the one profile), repeated flags
// once per value; --password-env is replayed (the children inherit the
// variable).
func TestChildArgs(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.String("target", "", "")
	fs.Int("threads", 1, "")
	fs.StringArrayP("p", "p", nil, "")
	fs.Int("processes", 0, "")
	fs.String("json", "", "")
	fs.Bool("check", false, "")
	fs.String("metrics-addr", "", "")
	fs.String("cpuprofile", "", "")
	fs.String("memprofile", "", "")
	fs.String("password-env", "", "")
	if err := fs.Parse([]string{"--target", "mysql://u@h/db", "--threads", "8", "-p", "a=1", "-p", "b=2,3",
		"--processes", "2", "--json", "out.json", "--check", "--metrics-addr", "127.0.0.1:9400",
		"--cpuprofile", "cpu.out", "--memprofile", "mem.out", "--password-env", "BENCH_PW"}); err != nil {
		t.Fatal(err)
	}
	got := ChildArgs("ycsb", []string{"a"}, fs)()
	want := []string{"ycsb", "run", "a", "--p=a=1", "--p=b=2,3", "--password-env=BENCH_PW", "--target=mysql://u@h/db", "--threads=8"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ChildArgs = %q\nwant %q", got, want)
	}
}
