package target

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"
)

// ConnectErrorKind classifies why a session could not be opened.
type ConnectErrorKind int

const (
	ConnectOther         ConnectErrorKind = iota
	ConnectUnreachable                    // DNS, refused, timeout
	ConnectAuth                           // wrong user or password
	ConnectNoDatabase                     // database does not exist
	ConnectTooMany                        // server's connection limit reached
	ConnectBadParams                      // a URL parameter the driver or server rejects
	ConnectWrongProtocol                  // the server at the address speaks another protocol than the URL's scheme
)

var connectKindNames = [...]string{"other", "unreachable", "auth", "no_database", "too_many_connections", "bad_parameter", "wrong_protocol"}

// ErrBadParams marks URL parameters the driver rejects before any
// connection is made (malformed value, unknown TLS mode...): bad input.
var ErrBadParams = errors.New("bad target URL parameter")

// String is the stable snake_case name of the kind.
func (k ConnectErrorKind) String() string {
	if k >= 0 && int(k) < len(connectKindNames) {
		return connectKindNames[k]
	}
	return "other"
}

// ConnectError is returned by Connector.Connect; its message names the
// endpoint and the server's message, never the password.
type ConnectError struct {
	Kind     ConnectErrorKind
	Endpoint string
	Err      error
}

func (e *ConnectError) Error() string { return "connect " + e.Endpoint + ": " + e.Err.Error() }
func (e *ConnectError) Unwrap() error { return e.Err }

// DefaultConnectTimeout bounds one connection attempt when
// Options.ConnectTimeout is zero.
const DefaultConnectTimeout = 10 * time.Second

// ErrConnectorClosed is returned by Connect after Close.
var ErrConnectorClosed = errors.New("connector is closed")

// backend opens sessions for one driver family.
type backend interface {
	// connect opens a session to Endpoints[i].
	connect(ctx context.Context, i int) (Conn, error)
	// connectKind classifies a connect failure.
	connectKind(err error) ConnectErrorKind
	close() error
}

// Connector opens sessions to a Target, spreading them round-robin over its
// endpoints. It is safe for concurrent use; Connect takes no lock.
type Connector struct {
	target  *Target
	opts    Options
	backend backend
	next    atomic.Uint64
	counts  []atomic.Int64
	clients clientCounts
	closed  atomic.Bool
	sockets *socketMode
}

// NewConnector validates opts and prepares per-endpoint driver state. It does
// not contact any server: the first Connect does.
func NewConnector(t *Target, opts Options) (*Connector, error) {
	if t == nil || len(t.Endpoints) == 0 {
		return nil, errors.New("new connector: target has no endpoints")
	}
	if err := opts.normalize(); err != nil {
		return nil, fmt.Errorf("new connector for %s: %w", t.Redacted(), err)
	}
	c := &Connector{target: t, opts: opts, counts: make([]atomic.Int64, len(t.Endpoints)), sockets: &socketMode{}}
	var err error
	switch t.Kind {
	case MySQL:
		c.backend, err = newMySQLBackend(t, opts, c.sockets)
	case Postgres:
		c.backend, err = newPostgresBackend(t, opts, c.sockets)
	case SQLite:
		if len(t.Endpoints) != 1 {
			return nil, fmt.Errorf("new connector for %s: sqlite takes exactly one file", t.Redacted())
		}
		c.backend, err = newSQLiteBackend(t, opts)
	default:
		return nil, fmt.Errorf("new connector: unknown kind %q", t.Kind)
	}
	if err != nil {
		return nil, fmt.Errorf("new connector for %s: %w", t.Redacted(), cleanError(err, t))
	}
	return c, nil
}

// Connect opens one session on the next endpoint in round-robin order,
// bounded by Options.ConnectTimeout. Failures are *ConnectError.
func (c *Connector) Connect(ctx context.Context) (Conn, error) {
	if c.closed.Load() {
		return nil, ErrConnectorClosed
	}
	i := int((c.next.Add(1) - 1) % uint64(len(c.target.Endpoints)))
	cctx, cancel := context.WithTimeout(ctx, c.opts.ConnectTimeout)
	defer cancel()
	conn, err := c.backend.connect(cctx, i)
	if err != nil {
		kind := c.backend.connectKind(err)
		ownTimeout := errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil
		if kind == ConnectOther && ownTimeout {
			kind = ConnectUnreachable // our own connect timeout fired
		}
		err = cleanError(err, c.target)
		wrongProtocol := otherProtocol(c.target.Kind, err)
		if wrongProtocol {
			kind = ConnectWrongProtocol
		}
		if hint := connectHint(c.target.Kind, wrongProtocol, ownTimeout, c.opts.ConnectTimeout); hint != "" {
			err = fmt.Errorf("%w (%s)", err, hint)
		}
		if p := tlsParam(c.target); p != "" && tlsRefused(err) {
			// The URL demands TLS and the server does not offer it: a
			// setting the user must change, not a failed connection.
			kind = ConnectBadParams
			err = fmt.Errorf("%w (requested by the target URL's %s: drop the parameter, or enable TLS on the server)", err, p)
		}
		return nil, &ConnectError{Kind: kind, Endpoint: c.target.Endpoints[i], Err: err}
	}
	c.counts[i].Add(1)
	c.clients.add(clientOf(conn))
	return conn, nil
}

// connectHint explains the failures a wrong port or scheme produces,
// which the drivers report only as their symptom: a MySQL client waits
// for the server's greeting, which a PostgreSQL server (waiting for its
// client to speak first) never sends, until the connect timeout; a
// PostgreSQL client reads a MySQL greeting as an unexpected message.
func connectHint(kind Kind, wrongProtocol, ownTimeout bool, timeout time.Duration) string {
	switch {
	case ownTimeout && kind == MySQL:
		return fmt.Sprintf("no session within %s (--connect-timeout): the host did not accept the connection or the server never greeted; a wrong port or scheme does this too (a PostgreSQL server waits silently for a MySQL client)", timeout)
	case ownTimeout:
		return fmt.Sprintf("no session within %s (--connect-timeout): the host did not accept the connection or the server did not finish the start-up", timeout)
	case wrongProtocol:
		return "the server on that port does not speak the PostgreSQL protocol (a MySQL server?): check the port and the URL's scheme"
	}
	return ""
}

// otherProtocol tells a start-up that failed because the server answered
// in another protocol: pgx reads a MySQL server's greeting, which it sends
// before its client speaks, as an unexpected message. (A MySQL client at
// a PostgreSQL port gets no answer at all: that stays a timeout.)
func otherProtocol(kind Kind, err error) bool {
	return kind == Postgres && strings.Contains(err.Error(), "received unexpected message")
}

// EndpointCounts reports how many sessions were opened per endpoint
// (host:port, or the file path for SQLite) since the Connector was made.
func (c *Connector) EndpointCounts() map[string]int64 {
	m := make(map[string]int64, len(c.counts))
	for i, ep := range c.target.Endpoints {
		m[ep] += c.counts[i].Load()
	}
	return m
}

// Target is the target this Connector opens sessions to.
func (c *Connector) Target() *Target { return c.target }

// Options are the normalized options (defaults filled in).
func (c *Connector) Options() Options { return c.opts }

// Close releases pooled driver state. Sessions already handed out stay
// usable until closed by their owners; Connect fails afterwards.
func (c *Connector) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	return c.backend.close()
}

// normalize fills defaults and validates the options.
func (o *Options) normalize() error {
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	switch o.StatementMode {
	case "":
		o.StatementMode = Prepared
	case Prepared, Text:
	default:
		return fmt.Errorf("unknown statement mode %q (use prepared or text)", o.StatementMode)
	}
	if _, err := isolationSQL(o.Isolation); err != nil {
		return err
	}
	return nil
}

// isolationSQL maps an Options.Isolation name to its SQL spelling; "" maps
// to "" (server default).
func isolationSQL(name string) (string, error) {
	switch strings.ReplaceAll(strings.ToLower(name), "_", "-") {
	case "":
		return "", nil
	case "read-uncommitted":
		return "READ UNCOMMITTED", nil
	case "read-committed":
		return "READ COMMITTED", nil
	case "repeatable-read":
		return "REPEATABLE READ", nil
	case "serializable":
		return "SERIALIZABLE", nil
	}
	return "", fmt.Errorf("unknown isolation level %q (use read-uncommitted, read-committed, repeatable-read or serializable)", name)
}

// cleanError makes a driver error safe and fit for one line: the password is
// masked even if a driver echoed it, a driver's formatting artefact is
// dropped, and multi-line messages (pgx lists every attempt on its own
// line) are joined with "; ", duplicates dropped.
// Unwrap keeps errors.As working on the driver error.
func cleanError(err error, t *Target) error {
	if err == nil {
		return nil
	}
	return &cleanedError{err: err, password: t.Password, user: t.User}
}

type cleanedError struct {
	err            error
	password, user string
}

func (e *cleanedError) Error() string {
	msg := e.err.Error()
	// Short passwords (under 4 bytes), and one equal to the user name that is
	// printed anyway, are not searched for: masking every "ab" in a message
	// would garble it more than it protects.
	if len(e.password) >= 4 && e.password != e.user {
		msg = strings.ReplaceAll(msg, e.password, redactedPassword)
	}
	// pgx 5.12 formats a nil cause with %w ("received unexpected message:
	// %!w(<nil>)"): the artefact, not the server's words.
	msg = strings.ReplaceAll(msg, ": %!w(<nil>)", "")
	if !strings.Contains(msg, "\n") {
		return msg
	}
	var parts []string
	seen := map[string]bool{}
	for _, line := range strings.Split(msg, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !seen[line] {
			seen[line] = true
			parts = append(parts, line)
		}
	}
	return strings.Join(parts, " ")
}

func (e *cleanedError) Unwrap() error { return e.err }

// tlsParam names the target URL's parameter that demands TLS ("tls=true",
// "sslmode=require"), or "" when it sets none.
func tlsParam(t *Target) string {
	for _, k := range []string{"tls", "sslmode"} {
		if v, ok := t.Params[k]; ok {
			return k + "=" + v
		}
	}
	return ""
}

// tlsRefused reports a driver's error for a server that does not offer
// the TLS the URL requires (go-sql-driver/mysql ErrNoTLS; pgx when the
// server answers the SSL request with no).
func tlsRefused(err error) bool {
	return errors.Is(err, mysql.ErrNoTLS) || strings.Contains(err.Error(), "server refused TLS connection")
}
