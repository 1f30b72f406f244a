package console

import (
	"bytes"
	"testing"
	"time"

	"benchpress/internal/results"
)

func TestNumbers(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{FI(0), "0"}, {FI(999), "999"}, {FI(1000), "1,000"}, {FI(-1234567), "-1,234,567"},
		{F1(1234.56), "1,234.6"}, {F2(1234567.891), "1,234,567.89"}, {F2(-0.5), "-0.50"},
		{Elapsed(1499 * time.Millisecond), "1s"}, {Elapsed(90 * time.Second), "90s"},
		{ErrClasses(nil), ""}, {ErrClasses(map[string]int64{"other": 1, "deadlock": 3}), "  deadlock 3, other 1"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestTable(t *testing.T) {
	tb := &Table{Head: []string{"op", "count"}}
	tb.Add("new_order", "1,234")
	tb.Add("p", "5")
	var b bytes.Buffer
	tb.Write(&b)
	want := "op         count\nnew_order  1,234\np              5\n"
	if b.String() != want {
		t.Fatalf("table:\n%q\nwant\n%q", b.String(), want)
	}
}

// The summary's error line shows failed transactions and retried attempts
// with their classes: every failed attempt is in one of them.
func TestErrorsLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  results.Run
		want string
	}{
		{"none", results.Run{ErrorsByClass: map[string]int64{}}, "errors 0   retries 0   reconnects 0"},
		{"retried lock waits", results.Run{
			Summary:        results.Summary{Errors: 7, Retries: 1245},
			ErrorsByClass:  map[string]int64{"other": 6, "lock_timeout": 1},
			RetriesByClass: map[string]int64{"lock_timeout": 1205, "deadlock": 40},
			Reconnects:     2,
		}, "errors 7 (lock_timeout 1, other 6)   retries 1,245 (deadlock 40, lock_timeout 1205)   reconnects 2"},
		{"old file: retries without classes", results.Run{Summary: results.Summary{Retries: 54}}, "errors 0   retries 54   reconnects 0"},
	} {
		if got := ErrorsLine(&tc.run); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
