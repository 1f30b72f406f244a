package runner

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestSyncStartsAtTheAgreedInstant: warm-up starts at the instant Sync
// returns (not when the terminals are ready), the wait is not connect time,
// and a failed Sync runs nothing.
func TestSyncStartsAtTheAgreedInstant(t *testing.T) {
	var at time.Time
	wl := &fakeWL{service: 2 * time.Millisecond}
	cfg := Config{Terminals: 2, Warmup: 200 * time.Millisecond, Duration: 300 * time.Millisecond,
		Sync: func(context.Context) (time.Time, error) { at = time.Now().Add(400 * time.Millisecond); return at, nil }}
	res, err := Run(context.Background(), cfg, wl, &fakeDialer{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Started.Before(at) || res.Started.Sub(at) > 50*time.Millisecond {
		t.Errorf("started %s after the agreed instant", res.Started.Sub(at))
	}
	if d := res.MeasureFrom.Sub(at); d < 200*time.Millisecond || d > 300*time.Millisecond {
		t.Errorf("window opened %s after the agreed instant, want the 200ms warm-up", d)
	}
	if res.ConnectTime > 300*time.Millisecond {
		t.Errorf("connect time %s includes the wait for the start", res.ConnectTime)
	}

	wl = &fakeWL{}
	boom := errors.New("partition 1 never arrived")
	cfg.Sync = func(context.Context) (time.Time, error) { return time.Time{}, boom }
	res, err = Run(context.Background(), cfg, wl, &fakeDialer{})
	if !errors.Is(err, boom) || res != nil || wl.calls.Load() != 0 {
		t.Errorf("failed sync: res %v, err %v, %d ops ran", res, err, wl.calls.Load())
	}
}
