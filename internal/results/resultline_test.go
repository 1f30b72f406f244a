package results

import (
	"os"
	"strings"
	"testing"
)

// TestReadResultLines: merge reads result lines out of kubectl logs, also
// with kubectl's --prefix, and says so when there are none.
func TestReadResultLines(t *testing.T) {
	dir := t.TempDir()
	logs := dir + "/pods.log"
	body := "[pod/j-0-abc/benchpress] connecting ...\n" +
		"[pod/j-0-abc/benchpress] " + LinePrefix + `{"format_version":1,"workload":"tpcc","partition":{"index":0,"count":2}}` + "\n" +
		LinePrefix + `{"format_version":1,"workload":"tpcc","partition":{"index":1,"count":2}}` + "\n"
	if err := writeFile(logs, body); err != nil {
		t.Fatal(err)
	}
	runs, err := ReadAll(logs)
	if err != nil || len(runs) != 2 || runs[1].Partition.Index != 1 {
		t.Fatalf("ReadAll = %v, %v", runs, err)
	}
	empty := dir + "/empty.log"
	if err := writeFile(empty, "nothing here\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadAll(empty); err == nil || !strings.Contains(err.Error(), "benchpress-result") {
		t.Errorf("no result lines: %v", err)
	}
}

func writeFile(path, body string) error { return os.WriteFile(path, []byte(body), 0o644) }
