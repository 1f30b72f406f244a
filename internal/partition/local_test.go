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

// A password typed into --target never reaches a child's command line
// (ps, /proc): the URL goes without it, --password-env names the variable
// ChildEnv sets, and a --password-env of the parent's is not replayed (the
// URL's password wins over it, as in target.Flags.Resolve).
func TestChildArgsHidePassword(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantArgs []string
		wantEnv  []string
	}{
		{"password in the URL", []string{"--target", "mysql://bench:s3cret@h:3306/db", "--password-env", "OTHER"},
			[]string{"tpcc", "run", "--target=mysql://bench@h:3306/db", "--password-env=" + ChildPasswordEnv}, []string{ChildPasswordEnv + "=s3cret"}},
		{"percent-encoded", []string{"--target", "postgres://u:p%40ss@h1,h2/db"},
			[]string{"tpcc", "run", "--target=postgres://u@h1,h2/db", "--password-env=" + ChildPasswordEnv}, []string{ChildPasswordEnv + "=p@ss"}},
		{"sqlite path with @ and :", []string{"--target", "sqlite:///tmp/a:b@c.db"},
			[]string{"tpcc", "run", "--target=sqlite:///tmp/a:b@c.db"}, nil},
		{"no password", []string{"--target", "mysql://bench@h/db", "--password-env", "BENCH_PW"},
			[]string{"tpcc", "run", "--password-env=BENCH_PW", "--target=mysql://bench@h/db"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
			fs.String("target", "", "")
			fs.String("password-env", "", "")
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			if got := ChildArgs("tpcc", nil, fs)(); !reflect.DeepEqual(got, tc.wantArgs) {
				t.Errorf("ChildArgs = %q\nwant %q", got, tc.wantArgs)
			}
			if got := ChildEnv(fs); !reflect.DeepEqual(got, tc.wantEnv) {
				t.Errorf("ChildEnv = %q, want %q", got, tc.wantEnv)
			}
		})
	}
}
