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

// The database counters' error is printed once with its prefix, whether the
// watcher's message carries it (a session lost mid-run) or not.
func TestPrintWatchDatabaseError(t *testing.T) {
	tests := []struct{ err, want string }{
		{"database counters: FATAL: terminating connection due to administrator command (SQLSTATE 57P01)",
			"\ndatabase counters: FATAL: terminating connection due to administrator command (SQLSTATE 57P01)\n"},
		{"no admin session", "\ndatabase counters: no admin session\n"},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		PrintWatch(&b, &results.Run{Watch: &results.Watch{Database: &results.DBFigures{Error: tc.err}}})
		if b.String() != tc.want {
			t.Errorf("error %q printed %q, want %q", tc.err, b.String(), tc.want)
		}
	}
}
