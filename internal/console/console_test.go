package console

import (
	"bytes"
	"testing"
	"time"
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
