package runner

import (
	"context"
	"fmt"
	"time"

	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// SyncFunc is called once every terminal is connected and prepared. It
// returns the instant (on the local clock) at which warm-up starts; the run
// sleeps until then. Partitioned runs use it so that warm-up and the
// measurement window begin at the same wall-clock instants in every
// partition (a barrier in the database, or an instant agreed in advance).
type SyncFunc func(ctx context.Context) (time.Time, error)

// awaitStart runs cfg.Sync (if any) and sleeps until the instant it agreed.
// It returns how long that took (not part of the connect time). On failure
// or cancellation it closes terms and conns: nothing was measured.
func awaitStart(ctx context.Context, cfg *Config, terms []workload.Terminal, conns []target.Conn) (time.Duration, error) {
	if cfg.Sync == nil {
		return 0, nil
	}
	t0 := time.Now()
	at, err := cfg.Sync(ctx)
	if err == nil && !sleepCtx(ctx, time.Until(at)) {
		err = ctx.Err()
	}
	if err == nil {
		return time.Since(t0), nil
	}
	for _, t := range terms {
		t.Close()
	}
	for _, c := range conns {
		c.Close()
	}
	return 0, fmt.Errorf("synchronized start: %w", err)
}
