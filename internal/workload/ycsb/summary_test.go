package ycsb

import (
	"testing"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
)

func TestSummarize(t *testing.T) {
	p, _ := Properties("f")
	w, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	cum := metrics.Merge(numOps, numExtras)
	cum.Counts[OpRead].OK = 60
	cum.Counts[OpReadModifyWrite].OK = 40
	cum.Counts[OpReadModifyWrite].Errs[1] = 2
	cum.Extra[OpRead*numRC+rcOK] = 100
	cum.Extra[OpRead*numRC+rcNotFound] = 3
	cum.Extra[OpReadModifyWrite*numRC+rcError] = 2
	r := &results.Run{Summary: results.Summary{DurationS: 2}}
	w.Summarize(r, cum)
	codes := r.Extra["return_codes"].(map[string]map[string]int64)
	if codes["READ"]["OK"] != 100 || codes["READ"]["NOT_FOUND"] != 3 || codes["READ-MODIFY-WRITE"]["ERROR"] != 2 {
		t.Errorf("return codes %v", codes)
	}
	y := r.Extra["ycsb"].(*Summary)
	if y.Operations != 102 || y.ThroughputOpsSec != 51 || y.RuntimeMS != 2000 {
		t.Errorf("ycsb %+v", y)
	}
	if n := w.Statements(cum); n != 60+2*42 {
		t.Errorf("Statements = %d", n)
	}
}
