package sysbench

import (
	"reflect"
	"testing"
)

// --percentile takes what sysbench takes: [0, 100], 0 for no line.
func TestParsePercentiles(t *testing.T) {
	tests := []struct {
		in   string
		want []float64
		ok   bool
	}{
		{"95", []float64{95}, true},
		{"95, 99,99.9", []float64{95, 99, 99.9}, true},
		{"0", nil, true},
		{"100", []float64{100}, true},
		{"101", nil, false},
		{"-1", nil, false},
		{"p95", nil, false},
	}
	for _, tc := range tests {
		got, err := parsePercentiles(tc.in)
		if (err == nil) != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parsePercentiles(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
