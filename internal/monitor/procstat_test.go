package monitor

import (
	"math"
	"strings"
	"testing"
)

const procStatFixture = `cpu  10132153 290696 3084719 46828483 16683 0 25195 7 175628 0
cpu0 1393280 32966 572056 13343292 6130 0 17875 3 88000 0
cpu1 1335235 33098 528106 11152398 3538 0 5012 4 87628 0
intr 1462898 28 0 0
ctxt 115315
btime 1769079231
processes 86031
procs_running 6
procs_blocked 0
softirq 12121 0 1 2 3 4 5 6 7 8 9
`

func TestParseProcStat(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		wantBusy  float64
		wantIdle  float64
		wantCores int
		wantSteal float64
		wantErr   string
	}{
		{
			name: "full line, guest not double counted",
			in:   procStatFixture,
			// user+nice+system+irq+softirq+steal
			wantBusy:  10132153 + 290696 + 3084719 + 0 + 25195 + 7,
			wantIdle:  46828483 + 16683,
			wantCores: 2,
			wantSteal: 7,
		},
		{
			name:     "old kernel with four values",
			in:       "cpu 100 5 50 1000\n",
			wantBusy: 155, wantIdle: 1000,
		},
		{name: "too few values", in: "cpu 1 2 3\n", wantErr: "at least 4"},
		{name: "not a number", in: "cpu 1 2 x 4\n", wantErr: "field 3"},
		{name: "no aggregate line", in: "cpu0 1 2 3 4\nintr 5\n", wantErr: "no aggregate"},
		{name: "empty", in: "", wantErr: "no aggregate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseProcStat(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Busy != tt.wantBusy || got.Idle != tt.wantIdle || got.Cores != tt.wantCores || got.Steal != tt.wantSteal {
				t.Errorf("got %+v, want busy %v idle %v cores %d", got, tt.wantBusy, tt.wantIdle, tt.wantCores)
			}
		})
	}
}

func TestBusyPct(t *testing.T) {
	tests := []struct {
		name string
		a, b CPUTimes
		want float64
	}{
		{"quarter busy", CPUTimes{Busy: 100, Idle: 100}, CPUTimes{Busy: 125, Idle: 175}, 25},
		{"all busy", CPUTimes{Busy: 0, Idle: 10}, CPUTimes{Busy: 50, Idle: 10}, 100},
		{"no time passed", CPUTimes{Busy: 5, Idle: 5}, CPUTimes{Busy: 5, Idle: 5}, 0},
		{"counters went back", CPUTimes{Busy: 50, Idle: 50}, CPUTimes{Busy: 10, Idle: 10}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := BusyPct(tt.a, tt.b); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("BusyPct = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseVmHWM(t *testing.T) {
	status := "Name:\tbenchpress\nVmPeak:\t  800000 kB\nVmHWM:\t   20480 kB\nVmRSS:\t   10000 kB\n"
	got, err := ParseVmHWM(status)
	if err != nil || got != 20480*1024 {
		t.Fatalf("ParseVmHWM = %d, %v; want %d", got, err, 20480*1024)
	}
	for _, bad := range []string{"Name: x\n", "VmHWM: 12 MB\n", "VmHWM: x kB\n"} {
		if _, err := ParseVmHWM(bad); err == nil {
			t.Errorf("ParseVmHWM(%q) succeeded, want error", bad)
		}
	}
}
