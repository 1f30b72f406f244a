package results

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

func sampleSnapshot() *metrics.Snapshot {
	reg := metrics.NewRegistry([]string{"read", "write"}, nil, 1)
	reg.SetPhase(metrics.Measure)
	rec := reg.Recorder(0)
	for i := 1; i <= 1000; i++ {
		rec.Record(0, time.Duration(i)*time.Microsecond, metrics.OK, target.ClassNone, nil)
	}
	rec.Record(1, 5*time.Millisecond, metrics.Rollback, target.ClassNone, nil)
	rec.Record(1, 7*time.Millisecond, metrics.Failed, target.ClassDeadlock, nil)
	reg.Tick()
	return reg.Cumulative()
}

func TestOpsFromSnapshot(t *testing.T) {
	ops := OpsFrom(sampleSnapshot(), []string{"read", "write"}, 10)
	r, w := ops[0], ops[1]
	if r.Count != 1000 || r.PerSec != 100 || r.PerMin != 6000 {
		t.Errorf("read: %+v", r)
	}
	if r.Latency.P50 < 0.49 || r.Latency.P50 > 0.51 || r.Latency.Max < 0.99 || r.Latency.Min != 0.001 {
		t.Errorf("read latency: %+v", r.Latency)
	}
	if w.Count != 1 || w.Rollbacks != 1 || w.Errors != 1 || w.ErrClasses["deadlock"] != 1 || w.ErrLatency == nil {
		t.Errorf("write: %+v", w)
	}
}

func TestHistogramsRoundTrip(t *testing.T) {
	snap := sampleSnapshot()
	enc := EncodeHistograms(snap, []string{"read", "write"})
	for _, k := range []string{"read", "write", "write.err"} {
		if enc[k] == "" {
			t.Fatalf("histogram %q not encoded: %v", k, enc)
		}
	}
	h, err := DecodeHistogram(enc["read"])
	if err != nil {
		t.Fatal(err)
	}
	if h.TotalCount() != 1000 || h.ValueAtQuantile(99) != snap.OKHist[0].ValueAtQuantile(99) {
		t.Errorf("decoded count %d p99 %d", h.TotalCount(), h.ValueAtQuantile(99))
	}
}

func TestWriteReadAndVersion(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "r.json")
	in := &Run{FormatVersion: FormatVersion, Workload: "tpcc", Target: "mysql://u:***@h:3306/db", Status: "ok"}
	in.Summary.TpmC = 123.5
	if err := Write(p, in); err != nil {
		t.Fatal(err)
	}
	out, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if out.Summary.TpmC != 123.5 || out.Workload != "tpcc" {
		t.Errorf("round trip: %+v", out)
	}
	if _, err := os.Stat(p + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("temp file left behind")
	}
	for _, v := range []int{0, FormatVersion + 1} {
		bad := filepath.Join(dir, "bad.json")
		os.WriteFile(bad, []byte(`{"format_version": `+string(rune('0'+v))+`}`), 0o644)
		if _, err := Read(bad); err == nil || !strings.Contains(err.Error(), "format_version") {
			t.Errorf("version %d: err %v", v, err)
		}
	}
}

func TestAddNote(t *testing.T) {
	var r Run
	for _, n := range []string{"a", "", "b", "a"} {
		r.AddNote(n)
	}
	if got := r.WatchReasons(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("notes = %q, want [a b]", got)
	}
}

// Fill counts every failed attempt by class: final failures in
// errors_by_class (summing to summary.errors), re-run ones in
// retries_by_class (summing to summary.retries); Snapshot restores both,
// and a file from before retries were classified keeps its retry total.
func TestFillRetriesByClass(t *testing.T) {
	reg := metrics.NewRegistry([]string{"new_order", "payment"}, nil, 1)
	reg.SetPhase(metrics.Measure)
	rec := reg.Recorder(0)
	for range 1205 {
		rec.AddRetry(0, target.ClassLockTimeout)
	}
	for range 40 {
		rec.AddRetry(1, target.ClassDeadlock)
	}
	rec.Record(0, time.Millisecond, metrics.OK, target.ClassNone, nil)
	rec.Record(0, time.Millisecond, metrics.Failed, target.ClassLockTimeout, nil)
	for range 6 {
		rec.Record(1, time.Millisecond, metrics.Failed, target.ClassOther, nil)
	}
	reg.Tick()
	names := []string{"new_order", "payment"}
	var r Run
	Fill(&r, reg.Cumulative(), names, 10)
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"errors_by_class", r.ErrorsByClass, map[string]int64{"lock_timeout": 1, "other": 6}},
		{"retries_by_class", r.RetriesByClass, map[string]int64{"lock_timeout": 1205, "deadlock": 40}},
		{"new_order retry_classes", r.Ops[0].RetryClasses, map[string]int64{"lock_timeout": 1205}},
		{"payment retry_classes", r.Ops[1].RetryClasses, map[string]int64{"deadlock": 40}},
		{"errors", r.Summary.Errors, int64(7)},
		{"retries", r.Summary.Retries, int64(1245)},
	} {
		if fmt.Sprint(tc.got) != fmt.Sprint(tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	var sumE, sumR int64
	for _, v := range r.ErrorsByClass {
		sumE += v
	}
	for _, v := range r.RetriesByClass {
		sumR += v
	}
	if sumE != r.Summary.Errors || sumR != r.Summary.Retries {
		t.Errorf("by class %d + %d, summary %d + %d", sumE, sumR, r.Summary.Errors, r.Summary.Retries)
	}

	s, err := Snapshot(&r, nil)
	if err != nil {
		t.Fatal(err)
	}
	var back Run
	Fill(&back, s, names, 10)
	if fmt.Sprint(back.RetriesByClass) != fmt.Sprint(r.RetriesByClass) || back.Summary.Retries != r.Summary.Retries {
		t.Errorf("round trip: retries %d %v, want %d %v", back.Summary.Retries, back.RetriesByClass, r.Summary.Retries, r.RetriesByClass)
	}

	old := r
	old.Ops = append([]Op(nil), r.Ops...)
	for i := range old.Ops {
		old.Ops[i].RetryClasses = nil
	}
	s, err = Snapshot(&old, nil)
	if err != nil {
		t.Fatal(err)
	}
	Fill(&back, s, names, 10)
	if back.Summary.Retries != 1245 || back.RetriesByClass != nil {
		t.Errorf("unclassified retries: %d %v, want 1245 and no classes", back.Summary.Retries, back.RetriesByClass)
	}
}
