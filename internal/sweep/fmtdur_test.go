package sweep

import (
	"testing"
	"time"
)

func TestFmtDurRoundTrips(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want string
	}{
		{0, "0s"}, {10 * time.Second, "10s"}, {20 * time.Second, "20s"}, {30 * time.Second, "30s"},
		{2 * time.Minute, "2m"}, {90 * time.Second, "1m30s"}, {time.Hour, "1h"}, {time.Hour + 10*time.Second, "1h0m10s"},
		{1500 * time.Millisecond, "1.5s"},
		// The sweep's estimate: 12 steps of 30 s + 2 m + 10 s (cutting "0s"
		// from every string printed "31m5").
		{31*time.Minute + 50*time.Second, "31m50s"}, {2*time.Hour + 40*time.Minute, "2h40m"},
	}
	for _, tc := range tests {
		got := FmtDur(tc.in)
		if got != tc.want {
			t.Errorf("FmtDur(%v) = %q, want %q", tc.in, got, tc.want)
		}
		back, err := time.ParseDuration(got)
		if err != nil || back != tc.in {
			t.Errorf("FmtDur(%v) = %q does not parse back (%v, %v)", tc.in, got, back, err)
		}
	}
}
