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
		{"sessions lost in the warm-up", results.Run{Reconnects: 1, WarmupReconnects: 4}, "errors 0   retries 0   reconnects 1 (4 after losses in the warm-up)"},
		{"transactions of the warm-up failed", results.Run{WarmupErrors: 6}, "errors 0 (+6 started in the warm-up)   retries 0   reconnects 0"},
		{"both phases failed", results.Run{Summary: results.Summary{Errors: 2}, ErrorsByClass: map[string]int64{"resource_limit": 2}, WarmupErrors: 1234},
			"errors 2 (resource_limit 2) (+1,234 started in the warm-up)   retries 0   reconnects 0"},
	} {
		if got := ErrorsLine(&tc.run); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Error samples from the warm-up are marked as such under a header that
// says they are outside the window's counts; a window-only list is not.
func TestErrorSamplesPhase(t *testing.T) {
	warm := results.ErrorSample{Class: "lost_connection", Op: "payment", Message: "payment: commit: i/o timeout", Count: 2, Phase: results.PhaseWarmup}
	win := results.ErrorSample{Class: "deadlock", Code: "1213", Op: "new_order", Message: "Deadlock found", Count: 1, Phase: results.PhaseWindow}
	for _, tc := range []struct {
		name    string
		samples []results.ErrorSample
		want    string
	}{
		{"window only", []results.ErrorSample{win},
			"\nerrors (first distinct messages per class):\n  deadlock        new_order [1213] x1: Deadlock found\n"},
		{"warm-up and window", []results.ErrorSample{warm, win},
			"\nerrors (first distinct messages per class; 1 of 2 from the warm-up, outside the window's counts):\n" +
				"  lost_connection warm-up payment x2: payment: commit: i/o timeout\n  deadlock        new_order [1213] x1: Deadlock found\n"},
		{"none", nil, ""},
	} {
		var b bytes.Buffer
		errorSamples(&b, tc.samples)
		if b.String() != tc.want {
			t.Errorf("%s:\n%q\nwant\n%q", tc.name, b.String(), tc.want)
		}
	}
}

// The open-loop dropped count of Poisson arrivals is said to be an
// estimate, with the arrivals' own spread beside it; a uniform one is a
// count.
func TestDroppedText(t *testing.T) {
	run := func(arrivals string) *results.Run {
		r := &results.Run{Rate: &results.RateFigures{TargetPerS: 2000, Arrivals: arrivals, Dropped: 300}}
		r.Summary.DurationS = 300
		return r
	}
	if got := droppedText(run("uniform")); got != "300" {
		t.Errorf("uniform: %q", got)
	}
	if got, want := droppedText(run("poisson")), "about 300 (expected arrivals less those started; Poisson arrivals vary by +/- 775)"; got != want {
		t.Errorf("poisson: %q, want %q", got, want)
	}
}

// A partition's summary says its figures are its share of a run split
// over several processes, beside the run's terminal count.
func TestSummaryMarksPartitionShare(t *testing.T) {
	for _, tc := range []struct {
		part *results.Partition
		want string
	}{
		{nil, "64 terminals (started in"},
		{&results.Partition{Index: 1, Count: 4, Terminals: 16}, "64 terminals (partition 1/4: 16 of them, its share of the figures; merge the partitions for the run's)"},
	} {
		var b bytes.Buffer
		Summary(&b, &results.Run{Workload: "sysbench/oltp_point_select", Status: "ok", Config: map[string]any{"terminals": 64}, Partition: tc.part})
		if !bytes.Contains(b.Bytes(), []byte(tc.want)) {
			t.Errorf("partition %+v: summary lacks %q:\n%s", tc.part, tc.want, b.String())
		}
	}
}
