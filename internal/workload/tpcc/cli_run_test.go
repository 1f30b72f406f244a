package tpcc

import (
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// TestRunTimeFlags: --warmup, --duration and --report-interval take a
// duration or bare seconds, as the sysbench and YCSB commands do, and keep
// their defaults when not given.
func TestRunTimeFlags(t *testing.T) {
	tests := []struct {
		args                  []string
		warmup, dur, interval time.Duration
	}{
		{nil, 10 * time.Second, time.Minute, 10 * time.Second},
		{[]string{"--warmup", "5s", "--duration", "5m", "--report-interval", "1s"}, 5 * time.Second, 5 * time.Minute, time.Second},
		{[]string{"--warmup", "0", "--duration", "90", "--report-interval", "0.5"}, 0, 90 * time.Second, 500 * time.Millisecond},
	}
	for _, tt := range tests {
		var o RunOptions
		fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
		o.Flags(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		r := o.Runner
		if r.Warmup != tt.warmup || r.Duration != tt.dur || r.ReportInterval != tt.interval {
			t.Errorf("%v: warmup %v duration %v interval %v, want %v %v %v", tt.args, r.Warmup, r.Duration, r.ReportInterval, tt.warmup, tt.dur, tt.interval)
		}
	}
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	var o RunOptions
	o.Flags(fs)
	if err := fs.Parse([]string{"--duration", "ten"}); err == nil {
		t.Errorf("--duration ten: no error")
	}
}
