package sweep

import (
	"strings"
	"testing"
	"time"

	"benchpress/internal/registry"
)

// TestStepChildArgs: a step's child gets the plan's options as flags,
// list-valued ones once per element (an element keeps its commas), and
// never the flags the parent sets.
func TestStepChildArgs(t *testing.T) {
	st := Step{CaseID: "c1", Workload: "ycsb/a", Target: "mysql://u@h/db", Concurrency: 16,
		Warmup: time.Second, Duration: 5 * time.Second,
		Options: map[string]string{"p": registry.JoinList([]string{"readproportion=0.9", "updateproportion=0.1", "table=a,b", "mysql.password=s3cret", "db.passwd=s3cret", "db.url=jdbc:mysql://h/db?user=u&password=s3cret"}),
			"processes": "2", "records": "1000"}}
	args := strings.Join(st.ChildArgs(), " ")
	if strings.Contains(args, "s3cret") {
		t.Errorf("ChildArgs = %q: a password property on the command line", args)
	}
	for _, w := range []string{"ycsb run a ", "--p=readproportion=0.9 --p=updateproportion=0.1 --p=table=a,b --p=mysql.password=xxxxx ", "--records=1000",
		"--target=mysql://u@h/db", "--threads=16", "--warmup=1s", "--duration=5s", "--report-interval=0"} {
		if !strings.Contains(args, w) {
			t.Errorf("ChildArgs = %q lacks %q", args, w)
		}
	}
	if strings.Contains(args, "processes") {
		t.Errorf("ChildArgs = %q passes --processes to a child", args)
	}
}

// TestStepChildArgsKeepThePasswordOff: the target's password (a plan's
// ${BENCH_PW} or password_env, expanded) is never on a child's command
// line, which every user of the machine can read; the child reads it from
// the variable its environment gets (ChildEnv) through --password-env.
func TestStepChildArgsKeepThePasswordOff(t *testing.T) {
	tests := []struct {
		name, target string
		wantTarget   string // the --target the child gets
		wantPW       string // the password in its environment ("" none)
	}{
		{"password", "mysql://bench:s3cret@10.0.0.5:3306/tpcc", "mysql://bench@10.0.0.5:3306/tpcc", "s3cret"},
		{"percent-encoded, from password_env", "postgres://bench:p%40ss%3Aw%2Fd@h1:5432,h2:5432/bp?sslmode=disable",
			"postgres://bench@h1:5432,h2:5432/bp?sslmode=disable", "p@ss:w/d"},
		{"unescaped @ in the password", "mysql://bench:a@b@h/db", "mysql://bench@h/db", "a@b"},
		{"no password", "mysql://bench@h/db", "mysql://bench@h/db", ""},
		{"no user", "mysql://h/db", "mysql://h/db", ""},
		{"sqlite", "sqlite:///tmp/x.db", "sqlite:///tmp/x.db", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := Step{CaseID: "c1", Workload: "tpcc", Target: tc.target, Concurrency: 8,
				Warmup: time.Second, Duration: 5 * time.Second, Options: map[string]string{"processes": "2"}}
			args := st.ChildArgs()
			joined := strings.Join(args, " ")
			if tc.wantPW != "" && strings.Contains(joined, tc.wantPW) {
				t.Fatalf("the password is on the child's command line: %q", joined)
			}
			if !strings.Contains(joined, "--target="+tc.wantTarget+" ") {
				t.Errorf("ChildArgs = %q, want --target=%s", joined, tc.wantTarget)
			}
			env := st.ChildEnv()
			if tc.wantPW == "" {
				if env != nil || strings.Contains(joined, "--password-env") {
					t.Errorf("no password, yet env %q and args %q", env, joined)
				}
				return
			}
			if len(env) != 1 || env[0] != ChildPasswordEnv+"="+tc.wantPW {
				t.Errorf("ChildEnv = %q, want %s=<the password>", env, ChildPasswordEnv)
			}
			if !strings.Contains(joined, "--password-env="+ChildPasswordEnv) {
				t.Errorf("ChildArgs = %q lacks --password-env=%s", joined, ChildPasswordEnv)
			}
		})
	}
}
