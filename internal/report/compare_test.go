package report

import (
	"strings"
	"testing"
)

func TestCompareFilesAndDirs(t *testing.T) {
	d, err := Compare("testdata/poc/T1-1/64.json", "testdata/poc/T1-2/64.json")
	if err != nil {
		t.Fatal(err)
	}
	md := string(d.Markdown())
	for _, want := range []string{"| tpmC | 258461.54 | 213333.33 | -17.46% |", "| p95 ms | 16.05 | 19.44 | +21.12% |", "| status | ok | ok |  |"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
	d, err = Compare("testdata/poc", "testdata/poc")
	if err != nil {
		t.Fatal(err)
	}
	if md := string(d.Markdown()); !strings.Contains(md, "## Case T1-1") || !strings.Contains(md, "| 64 | 258461.54 | 258461.54 | 0.00% | 1.000x |") {
		t.Errorf("dir compare:\n%s", md)
	}
	if _, err := Compare("testdata/poc", "testdata/mixed"); err == nil || !strings.Contains(err.Error(), "no case in common") {
		t.Errorf("want no-case-in-common error, got %v", err)
	}
	if _, err := Compare("testdata/poc", "testdata/poc/T1-1/1.json"); err == nil {
		t.Error("want error for file vs dir")
	}
}
