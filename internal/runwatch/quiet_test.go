package runwatch

import (
	"context"
	"errors"
	"testing"
	"time"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/target"
)

// stubConn answers Exec with err and fails the test on anything else the
// quiet start must not do.
type stubConn struct {
	target.Conn
	err   error
	execs int
}

func (c *stubConn) Exec(context.Context, string, ...any) (int64, error) {
	c.execs++
	return 0, c.err
}

// TestQuietStartFallback: where pg_stat_force_next_flush() is missing
// (PostgreSQL before 15, a PostgreSQL-protocol proxy) or a terminal's
// session refuses it, no quiet reading is taken and the commit check
// compares the measurement window with its slack (terminals + 2, and two
// seconds of throughput on PostgreSQL), never a half-flushed run total.
func TestQuietStartFallback(t *testing.T) {
	missing := errors.New(`ERROR: function pg_stat_force_next_flush() does not exist (SQLSTATE 42883)`)
	tests := []struct {
		name      string
		admin     error
		terminal  error
		wantExecs int // terminal sessions asked to flush
	}{
		{"function missing", missing, nil, 0},
		{"a terminal refuses", nil, missing, 4},
	}
	tg, err := target.Parse("postgres://bench@127.0.0.1:1/bp")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := target.NewConnector(tg, target.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := &Run{spec: Spec{Name: "tpcc", Terminals: 4, Connector: conn}, admin: &stubConn{err: tc.admin}}
			var cfg runner.Config
			w.hookQuietStart(&cfg)
			terms := make([]target.Conn, 4)
			stubs := make([]*stubConn, 4)
			for i := range terms {
				stubs[i] = &stubConn{err: tc.terminal}
				terms[i] = stubs[i]
			}
			cfg.BeforeStart(context.Background(), terms)
			execs := 0
			for _, s := range stubs {
				execs += s.execs
			}
			if execs != tc.wantExecs {
				t.Errorf("%d terminal flushes, want %d", execs, tc.wantExecs)
			}
			if w.quiet != nil {
				t.Fatalf("quiet reading taken after %v / %v", tc.admin, tc.terminal)
			}
			cfg.OnTick(&metrics.Snapshot{Counts: []metrics.OpCounts{{OK: 500}}}, time.Second, false)
			run := &results.Run{Workload: "tpcc", ServerVersion: "14.12",
				Ops:     []results.Op{{Name: "new_order", Count: 300, Rollbacks: 3}},
				Summary: results.Summary{TPS: 10}}
			cc := w.commitCheck(run)
			if cc.From != nil || cc.ToolCommits != 297 || cc.Slack != 4+2+20 || !cc.Comparable {
				t.Errorf("commit check %+v, want the window's: tool 297, slack 26", cc)
			}
		})
	}
}
