package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"benchpress/internal/target"
)

// connBudget is a server's connection limit read before a run's terminals
// connect, and the sessions they need on the endpoint it was read on: the
// terminals spread round-robin over the target's endpoints.
type connBudget struct {
	limit     target.ConnLimit
	terminals int
	endpoints int
	endpoint  string // the endpoint the limit was read on
	need      int64  // sessions per endpoint
}

// readConnBudget reads the limit on a session of its own, closed before it
// returns; nil when there is none to read (SQLite, a known proxy, a server
// without the settings) or the session fails to open (the terminals'
// connect then reports why).
func readConnBudget(ctx context.Context, c *target.Connector, terminals int) *connBudget {
	if c.Target().Kind == target.SQLite {
		return nil
	}
	admin, err := c.Connect(ctx)
	if err != nil {
		return nil
	}
	defer admin.Close()
	lim, ok := target.ReadConnLimit(ctx, admin)
	if !ok {
		return nil
	}
	n := max(1, len(c.Target().Endpoints))
	return &connBudget{limit: lim, terminals: terminals, endpoints: n, endpoint: admin.Endpoint(), need: int64((terminals + n - 1) / n)}
}

// checkConnBudget reads the limit (readConnBudget) and prints its warning
// to w when the terminals will not fit.
func checkConnBudget(ctx context.Context, w io.Writer, c *target.Connector, terminals int) *connBudget {
	b := readConnBudget(ctx, c, terminals)
	if msg := b.warning(); msg != "" {
		fmt.Fprintln(w, "warning:", msg)
	}
	return b
}

// shortfall says, with the server's figures, that the terminals will not
// fit ("300 terminal(s) need 300 session(s) but the server admits 151
// (max_connections 151) and 2 other session(s) are open"), or "" when they
// fit or the limit is unknown.
func (b *connBudget) shortfall() string {
	if b == nil {
		return ""
	}
	s := b.limit.Shortfall(b.need)
	if s == "" {
		return ""
	}
	if b.endpoints > 1 {
		return fmt.Sprintf("%d terminal(s) over %d endpoints need %d session(s) on each, but on %s %s", b.terminals, b.endpoints, b.need, b.endpoint, s)
	}
	return fmt.Sprintf("%d terminal(s) need %d session(s), but %s", b.terminals, b.need, s)
}

// warning is the line printed before the terminals connect when they will
// not fit: the run still tries (a pooler in front of the server may
// multiplex the sessions), and a refusal then fails it with this figure
// in its hint (explain).
func (b *connBudget) warning() string {
	s := b.shortfall()
	if s == "" {
		return ""
	}
	return s + ": expect the server to refuse the rest (raise the limit or run fewer terminals)"
}

// explain adds the figures read before the run to the hint of a start that
// failed on the server's connection limit.
func (b *connBudget) explain(err error) error {
	s := b.shortfall()
	var se *StartError
	if s == "" || !target.IsConnLimit(err) || !errors.As(err, &se) {
		return err
	}
	se.Hint += "; before the run " + s
	return err
}
