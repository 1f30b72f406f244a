package partition

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseCPUSets(t *testing.T) {
	cases := []struct {
		in      string
		n       int
		want    [][]int
		wantErr string
	}{
		{"", 2, nil, ""},
		{"0-1:2,5", 2, [][]int{{0, 1}, {2, 5}}, ""},
		{"0:1:2", 3, [][]int{{0}, {1}, {2}}, ""},
		{"0-3", 2, nil, "want 2 CPU lists"},
		{"3-1:4", 2, nil, "not a CPU range"},
		{"a:1", 2, nil, "not a CPU number"},
	}
	for _, c := range cases {
		got, err := parseCPUSets(c.in, c.n)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("parseCPUSets(%q) err = %v, want %q", c.in, err, c.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseCPUSets(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}
