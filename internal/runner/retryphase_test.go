package runner

import (
	"context"
	"testing"

	"github.com/go-sql-driver/mysql"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

// phaseFlipTerm fails its first attempt with a deadlock and moves the run
// to the phase next while it runs (the window opens, or closes, during
// the attempt); its retry commits.
type phaseFlipTerm struct {
	reg   *metrics.Registry
	next  metrics.Phase
	calls int
}

func (t *phaseFlipTerm) Next() int       { return 0 }
func (t *phaseFlipTerm) Extras() []int64 { return nil }
func (t *phaseFlipTerm) Close()          {}
func (t *phaseFlipTerm) Exec(ctx context.Context, op int) (metrics.Outcome, error) {
	t.calls++
	if t.calls == 1 {
		t.reg.SetPhase(t.next)
		return metrics.Failed, &mysql.MySQLError{Number: 1213, Message: "Deadlock found when trying to get lock"}
	}
	return metrics.OK, nil
}

// TestRetryCountsInTheStartPhase: a transaction's retries count in the
// phase it started in, as its outcome and its error samples do, not in
// the phase the retry happened in: a warm-up transaction retried after the
// window opened adds no retry to the window, and a window transaction
// retried after the window closed keeps its retry in it.
func TestRetryCountsInTheStartPhase(t *testing.T) {
	tests := []struct {
		name            string
		started, during metrics.Phase
		wantWindow      int64
		wantSample      string
	}{
		{"warm-up, retried in the window", metrics.Warmup, metrics.Measure, 0, "warmup"},
		{"window, retried after it", metrics.Measure, metrics.Done, 1, "window"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := metrics.NewRegistry([]string{"op"}, nil, 1)
			reg.SetPhase(tc.started)
			term := &phaseFlipTerm{reg: reg, next: tc.during}
			w := &worker{cfg: &Config{MaxRetries: 3}, term: term, reg: reg, rec: reg.Recorder(0), samples: newErrorSamples([]string{"op"})}
			out, err := w.attempt(context.Background(), tc.started, 0)
			if err != nil || out != metrics.OK || term.calls != 2 {
				t.Fatalf("attempt: %v %v after %d calls, want a commit on the retry", out, err, term.calls)
			}
			reg.Tick()
			c := reg.Cumulative().Counts[0]
			if c.Retries != tc.wantWindow || c.RetryErrs[target.ClassDeadlock] != tc.wantWindow {
				t.Errorf("window retries %d (deadlock %d), want %d", c.Retries, c.RetryErrs[target.ClassDeadlock], tc.wantWindow)
			}
			s := w.samples.list()
			if len(s) != 1 || s[0].Phase != tc.wantSample {
				t.Errorf("error samples %+v, want one in the %s", s, tc.wantSample)
			}
		})
	}
}
