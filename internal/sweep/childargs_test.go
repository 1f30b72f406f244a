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
		Options: map[string]string{"p": registry.JoinList([]string{"readproportion=0.9", "updateproportion=0.1", "table=a,b"}),
			"processes": "2", "records": "1000"}}
	args := strings.Join(st.ChildArgs(), " ")
	for _, w := range []string{"ycsb run a ", "--p=readproportion=0.9 --p=updateproportion=0.1 --p=table=a,b ", "--records=1000",
		"--target=mysql://u@h/db", "--threads=16", "--warmup=1s", "--duration=5s", "--report-interval=0"} {
		if !strings.Contains(args, w) {
			t.Errorf("ChildArgs = %q lacks %q", args, w)
		}
	}
	if strings.Contains(args, "processes") {
		t.Errorf("ChildArgs = %q passes --processes to a child", args)
	}
}
