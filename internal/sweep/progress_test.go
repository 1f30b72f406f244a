package sweep

import (
	"errors"
	"strings"
	"testing"
	"time"

	"benchpress/internal/results"
)

// TestProgressDone: a step's line gives its figures or its error, and the
// verdict's first reason unless it only repeats the error.
func TestProgressDone(t *testing.T) {
	refused := errors.New("49 of 200 connections failed at start: Error 1040: Too many connections")
	for _, c := range []struct {
		name   string
		r      *results.Run
		status string
		err    error
		want   string
	}{
		{"ok", &results.Run{Verdict: results.VerdictOK, Summary: results.Summary{TPS: 250, P95MS: 4, P99MS: 9}}, "ok", nil,
			"[1/2] A c=4 tpcc: ok  TPS 250.0  p95 4.00 ms  p99 9.00 ms  eta 3s"},
		{"degraded", &results.Run{Verdict: results.VerdictDegraded, VerdictReasons: []string{"lost connections: 3"}, Summary: results.Summary{TPS: 250, P95MS: 4, P99MS: 9}}, "ok", nil,
			"[1/2] A c=4 tpcc: degraded  TPS 250.0  p95 4.00 ms  p99 9.00 ms  (lost connections: 3)  eta 3s"},
		{"ran, judged failed", &results.Run{Verdict: results.VerdictFailed, VerdictReasons: []string{"success rate 50 % below 99 %"}, Summary: results.Summary{TPS: 250, P95MS: 4, P99MS: 9, Errors: 7}}, "ok", nil,
			"[1/2] A c=4 tpcc: failed  TPS 250.0  p95 4.00 ms  p99 9.00 ms  errors 7  (success rate 50 % below 99 %)  eta 3s"},
		{"the warm-up failed", &results.Run{Verdict: results.VerdictOK, WarmupErrors: 12, Summary: results.Summary{TPS: 250, P95MS: 4, P99MS: 9}}, "ok", nil,
			"[1/2] A c=4 tpcc: ok  TPS 250.0  p95 4.00 ms  p99 9.00 ms  warm-up errors 12  eta 3s"},
		{"stopped", results.Refused("tpcc", "mysql://h/db", "mysql", "t", time.Time{}, refused, ""), "failed", refused,
			"[1/2] A c=4 tpcc: failed  (" + refused.Error() + ")  eta 3s"},
		{"failed with another reason", &results.Run{Verdict: results.VerdictFailed, VerdictReasons: []string{"success rate 50 % below 99 %"}}, "failed", refused,
			"[1/2] A c=4 tpcc: failed  (" + refused.Error() + ")  verdict failed: success rate 50 % below 99 %  eta 3s"},
	} {
		var b strings.Builder
		progress{w: &b, total: 2}.done(0, Cell{Case: ResolvedCase{ID: "A", Workload: "tpcc"}, Concurrency: 4}, c.r, c.status, c.err, 3*time.Second)
		if got := strings.TrimSuffix(b.String(), "\n"); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
