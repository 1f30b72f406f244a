package runner

import (
	"context"
	"fmt"

	"benchpress/internal/parallel"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// The start of a run: one session per terminal, then the terminals on them.

// StartError is returned when terminals could not connect at start. It is
// reported once with the count and the first server message.
type StartError struct {
	Failed, Total int
	First         error
}

func (e *StartError) Error() string {
	return fmt.Sprintf("%d of %d connections failed at start: %v", e.Failed, e.Total, e.First)
}

func (e *StartError) Unwrap() error { return e.First }

// defaultConnectParallel is Config.ConnectParallel's default.
const defaultConnectParallel = 64

// connectParallel is how many sessions (or terminals) the start opens at
// once: Config.ConnectParallel, or its default.
func (c *Config) connectParallel() int {
	if c.ConnectParallel > 0 {
		return c.ConnectParallel
	}
	return defaultConnectParallel
}

// openAll opens one connection per terminal, at most ConnectParallel at once.
func openAll(ctx context.Context, cfg Config, d Dialer) ([]target.Conn, error) {
	par := cfg.connectParallel()
	conns := make([]target.Conn, cfg.Terminals)
	errs := parallel.Each(len(conns), par, func(i int) (err error) {
		conns[i], err = d.Connect(ctx)
		return err
	})
	at, failed := parallel.First(errs)
	if failed > 0 {
		for _, c := range conns {
			if c != nil {
				c.Close()
			}
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if failed == len(conns) && len(conns) == 1 {
			return nil, errs[at]
		}
		return nil, &StartError{Failed: failed, Total: len(conns), First: errs[at]}
	}
	return conns, nil
}

// newTerminals makes one terminal per session, ConnectParallel at a time
// (preparing statements is one round trip each, so thousands of terminals
// made one after another would dominate the start). On failure everything
// is closed and the first error (lowest terminal) is returned. Only a
// workload that declares NewTerminal safe and deterministic under
// concurrency (ConcurrentTerminals) gets parallel creation; others are made
// in terminal order, as their random streams may depend on it.
func newTerminals(ctx context.Context, cfg Config, wl workload.Workload, conns []target.Conn) ([]workload.Terminal, error) {
	par := cfg.connectParallel()
	if ct, ok := wl.(interface{ ConcurrentTerminals() bool }); !ok || !ct.ConcurrentTerminals() {
		par = 1
	}
	terms := make([]workload.Terminal, len(conns))
	errs := parallel.Each(len(conns), par, func(i int) (err error) {
		terms[i], err = wl.NewTerminal(ctx, i, len(conns), conns[i])
		return err
	})
	if i, _ := parallel.First(errs); i >= 0 {
		for _, t := range terms {
			if t != nil {
				t.Close()
			}
		}
		for _, c := range conns {
			c.Close()
		}
		return nil, fmt.Errorf("terminal %d: %w", i+1, errs[i])
	}
	return terms, nil
}
