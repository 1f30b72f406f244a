package partition

import (
	"errors"
	"strings"
	"testing"

	"benchpress/internal/usage"
)

// TestForStep: a sweep step of a partitioned plan meets at the barrier
// under its own run id, ID-<case>-<concurrency>, the same on every
// machine; start-at, one instant for every step, is refused as bad input.
func TestForStep(t *testing.T) {
	tests := []struct {
		name    string
		f       Flags
		wantID  string
		wantErr string
	}{
		{"partition with run id", Flags{Partition: "0/2", RunID: "poc"}, "poc-T1-64", ""},
		{"not a partition", Flags{}, "", ""},
		{"processes", Flags{Processes: 2}, "", ""},
		{"start-at", Flags{Partition: "1/2", StartAt: "2026-11-23T14:00:00Z"}, "", "start-at cannot be used in a plan"},
		{"start-at and run id", Flags{Partition: "1/2", RunID: "poc", StartAt: "2026-11-23T14:00:00Z"}, "poc", "give run-id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.f
			err := f.ForStep("T1", 64)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				var ue *usage.Error
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want a usage error saying %q", err, tc.wantErr)
				}
			}
			if f.RunID != tc.wantID {
				t.Errorf("run id %q, want %q", f.RunID, tc.wantID)
			}
		})
	}
}
