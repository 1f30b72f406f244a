package sweep

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"benchpress/internal/results"
)

// A step that produced no result is saved judged: verdict failed with the
// error as its reason, and the remedy of a server limit apart.
func TestFailedRunIsJudged(t *testing.T) {
	limit := fmt.Errorf("106 of 256 connections failed at start: connect 127.0.0.1:3307: %w",
		&mysql.MySQLError{Number: 1226, Message: "User 'ux_lim' has exceeded the 'max_user_connections' resource (current value: 151)"})
	tests := []struct {
		name     string
		err      error
		wantHint bool
	}{
		{"connection limit", limit, true},
		{"unreachable", errors.New("dial tcp 127.0.0.1:3999: connect: connection refused"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cell := Cell{Case: ResolvedCase{ID: "C", Workload: "tpcc", Warmup: time.Second, Duration: time.Second}, Concurrency: 256}
			r := failedRun(cell, "mysql://u@h:3307/db", "test", time.Now(), tc.err)
			if r.Status != "failed" || r.Verdict != results.VerdictFailed {
				t.Fatalf("status %q verdict %q", r.Status, r.Verdict)
			}
			if len(r.VerdictReasons) != 1 || r.VerdictReasons[0] != "stopped: "+tc.err.Error() {
				t.Errorf("reasons %q", r.VerdictReasons)
			}
			if (r.Hint != "") != tc.wantHint {
				t.Errorf("hint %q, want one: %v", r.Hint, tc.wantHint)
			}
		})
	}
}
