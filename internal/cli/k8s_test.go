package cli

import (
	"strings"
	"testing"
)

func TestK8sJobCommand(t *testing.T) {
	base := []string{"k8s", "job", "--name", "tpcc-t8", "--partitions", "4", "--image", "reg/bp:v1", "--secret", "db", "--"}
	cases := []struct {
		name string
		run  []string
		code int
		want string
	}{
		{"tpcc run", []string{"tpcc", "run", "--target", "mysql://bench@db:3306/tpcc", "--terminals", "8"}, 0, "--partition=$(JOB_COMPLETION_INDEX)/4"},
		{"sysbench run", []string{"sysbench", "run", "oltp_read_only", "--target", "postgres://bench@db/sb", "--threads", "8"}, 0, "completionMode: Indexed"},
		{"unknown flag", []string{"tpcc", "run", "--bogus"}, ExitUsage, "unknown flag: --bogus"},
		{"not a run", []string{"tpcc", "check"}, ExitUsage, "cannot be partitioned"},
		{"inline password", []string{"tpcc", "run", "--target", "mysql://bench:pw@db:3306/tpcc"}, ExitUsage, "Secret"},
		{"partition given", []string{"tpcc", "run", "--partition", "0/4"}, ExitUsage, "--partition is set by the Job"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, stderr, code := runCLI(t, nil, append(append([]string(nil), base...), c.run...)...)
			if code != c.code || !strings.Contains(out+stderr, c.want) {
				t.Fatalf("exit %d (want %d), want %q in:\n%s%s", code, c.code, c.want, out, stderr)
			}
			if code == 0 && strings.Contains(out, "pw@") {
				t.Error("password in the manifest")
			}
		})
	}
}
