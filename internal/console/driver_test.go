package console

import (
	"bytes"
	"strings"
	"testing"

	"benchpress/internal/results"
)

// The GC's share is the runtime's processor (P) time: with more Ps than
// cores (blocking sockets) the line says it is not a share of CPU time.
// A window in which no GC cycle ended says so instead of a 0.0 % that
// reads as measured; results without the cycle count (older files) keep
// the share.
func TestDriverLineGCShare(t *testing.T) {
	tests := []struct {
		name       string
		gomaxprocs int
		cores      int
		cycles     *int64
		want       string
		notWant    string
	}{
		{"poller, Ps = cores", 2, 2, nil, "; GC 1.5 % of it; peak RSS", "processor time"},
		{"blocking, 260 Ps on 2 cores", 260, 2, nil, "; GC 1.5 % of the runtime's processor time (more Ps than cores: not a share of CPU time); peak RSS", "of it;"},
		{"cores unknown", 260, 0, nil, "; GC 1.5 % of it;", "processor time"},
		{"cycles counted", 2, 2, ptr(int64(3)), "; GC 1.5 % of it; peak RSS", "no collection"},
		{"no cycle in the window", 2, 2, ptr(int64(0)), "; GC: no collection ended in the window; peak RSS", "GC 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			DriverLine(&b, &results.Run{Driver: &results.Driver{CPUUserS: 1, GCSharePct: 1.5, PeakRSSMB: 50,
				Cores: tc.cores, GoMaxProcs: tc.gomaxprocs, SocketIO: "blocking", GCCycles: tc.cycles}})
			if got := b.String(); !strings.Contains(got, tc.want) || strings.Contains(got, tc.notWant) {
				t.Fatalf("got %q\nwant it to contain %q and not %q", got, tc.want, tc.notWant)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
