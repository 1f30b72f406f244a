package console

import (
	"bytes"
	"strings"
	"testing"

	"benchpress/internal/results"
)

func TestPrintWatch(t *testing.T) {
	// A real step result (the report's watched fixture).
	r, err := results.Read("../report/testdata/watched/T1/4.json")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	PrintWatch(&b, r)
	for _, want := range []string{"servers (mean over the measurement window)", "db    storage", "mariadbd", "TPS per CPU core",
		"database commits: agree", "compression"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	PrintWatch(&b, &results.Run{Notes: []string{"x"}})
	if b.String() != "note: x\n" {
		t.Errorf("without watch: %q", b.String())
	}
}
