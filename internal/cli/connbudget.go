package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"benchpress/internal/target"
)

// connBudget is a server's connection limit read before a run's terminals
// connect, and the sessions they need on the endpoint it was read on: the
// terminals spread round-robin over the target's endpoints. For one
// partition of a run (--partition) it also holds the whole run's
// terminals: the partitions on other machines share the server's limit.
type connBudget struct {
	limit     target.ConnLimit
	terminals int
	whole     int // the whole run's terminals when this is a partition; else 0
	// quietWhole leaves the whole run's shortfall out of the warning: it
	// is the same in every partition and partition 0 says it; a
	// refusal's hint (explain) still gives it.
	quietWhole bool
	endpoints  int
	endpoint   string // the endpoint the limit was read on
	need       int64  // sessions per endpoint
}

// readConnBudget reads the limit on a session of its own, closed before it
// returns; nil when there is none to read (SQLite, a known proxy, a server
// without the settings) or the session fails to open (the terminals'
// connect then reports why). whole is the whole run's terminals when
// these are one partition's (0 otherwise).
func readConnBudget(ctx context.Context, c *target.Connector, terminals, whole int) *connBudget {
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
	return newConnBudget(lim, terminals, whole, len(c.Target().Endpoints), admin.Endpoint())
}

// newConnBudget is the budget of terminals (of a whole run of whole, 0
// when not a partition) spread over endpoints, the limit read on endpoint.
func newConnBudget(lim target.ConnLimit, terminals, whole, endpoints int, endpoint string) *connBudget {
	n := max(1, endpoints)
	b := &connBudget{limit: lim, terminals: terminals, endpoints: n, endpoint: endpoint, need: perEndpoint(terminals, n)}
	if whole > terminals {
		b.whole = whole
	}
	return b
}

// perEndpoint is the sessions terminals spread round-robin over n
// endpoints open on the busiest one.
func perEndpoint(terminals, n int) int64 { return int64((terminals + n - 1) / n) }

// checkConnBudget reads the limit (readConnBudget) and prints its warning
// to w when the terminals will not fit. quietWhole: see connBudget.
func checkConnBudget(ctx context.Context, w io.Writer, c *target.Connector, terminals, whole int, quietWhole bool) *connBudget {
	b := readConnBudget(ctx, c, terminals, whole)
	if b != nil {
		b.quietWhole = quietWhole
	}
	if msg := b.warning(); msg != "" {
		fmt.Fprintln(w, "warning:", msg)
	}
	return b
}

// shortfall says, with the server's figures, that the terminals will not
// fit ("300 terminal(s) need 300 session(s) but the server admits 151
// (max_connections 151) and 2 other session(s) are open"), or "" when they
// fit or the limit is unknown. A partition's terminals are checked beside
// the sessions open now, and the whole run's against the limit itself
// (the other partitions' sessions may be among the open ones, or not yet).
func (b *connBudget) shortfall() string { return b.shortfallOf(true) }

// shortfallOf is shortfall, without the whole run's sentence unless whole.
func (b *connBudget) shortfallOf(whole bool) string {
	if b == nil {
		return ""
	}
	var out []string
	if s := b.limit.Shortfall(b.need); s != "" {
		out = append(out, b.sessions(b.terminals, b.need)+s)
	}
	if whole && b.whole > 0 {
		need := perEndpoint(b.whole, b.endpoints)
		if s := b.limit.ShortfallOfAll(need); s != "" {
			out = append(out, "the whole run's "+b.sessions(b.whole, need)+s)
		}
	}
	return strings.Join(out, "; ")
}

// sessions is the start of a shortfall: "300 terminal(s) need 300
// session(s), but " (with the endpoints when there are several).
func (b *connBudget) sessions(terminals int, need int64) string {
	if b.endpoints > 1 {
		return fmt.Sprintf("%d terminal(s) over %d endpoints need %d session(s) on each, but on %s ", terminals, b.endpoints, need, b.endpoint)
	}
	return fmt.Sprintf("%d terminal(s) need %d session(s), but ", terminals, need)
}

// warning is the line printed before the terminals connect when they will
// not fit: the run still tries (a pooler in front of the server may
// multiplex the sessions), and a refusal then fails it with this figure
// in its hint (explain).
func (b *connBudget) warning() string {
	s := b.shortfallOf(b == nil || !b.quietWhole)
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
