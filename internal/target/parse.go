package target

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Default server ports used when an endpoint names no port.
const (
	DefaultMySQLPort    = "3306"
	DefaultPostgresPort = "5432"
)

// Parse parses a --target URL:
//
//	mysql://user[:password]@host[:port][,host[:port]...]/db[?params]
//	postgres://...  (postgresql:// is accepted as an alias; same shape)
//	sqlite:///abs/path.db | sqlite://rel/path.db | sqlite:rel.db
//
// User and password are percent-decoded. Ports default to 3306 and 5432;
// IPv6 hosts must be bracketed ([::1]:3306). Query parameters are kept in
// Params and passed through to the driver. Every error is one line, quotes
// the URL with the password replaced by *** and never contains the password.
func Parse(raw string) (*Target, error) {
	t, err := parse(raw)
	var se *schemeError
	if errors.As(err, &se) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("invalid target URL %q: %w", redactRaw(raw), err)
	}
	return t, nil
}

// SchemeAlias reports the scheme raw is read as when it is written with an
// alias (mariadb:// and tidb:// are mysql://, pg:// and postgresql:// are
// postgres://, sqlite3:// is sqlite://): the alias and its canonical
// scheme, or "" for a canonical or unknown scheme. Parse applies the rule;
// this names it for messages.
func SchemeAlias(raw string) (alias, canonical string) {
	colon := strings.Index(raw, ":")
	if colon <= 0 {
		return "", ""
	}
	s := strings.ToLower(strings.TrimSpace(raw[:colon]))
	switch s {
	case "mariadb", "tidb":
		return s, "mysql"
	case "pg", "postgresql":
		return s, "postgres"
	case "sqlite3":
		return s, "sqlite"
	}
	return "", ""
}

// KindOf is the kind of target the URL raw names by its scheme, aliases
// read as Parse reads them (tidb:// is MySQL, pg:// PostgreSQL); "" for
// an unknown scheme. It needs no valid rest of the URL: a refused run's
// record says what it was refused against.
func KindOf(raw string) Kind {
	colon := strings.Index(raw, ":")
	if colon <= 0 {
		return ""
	}
	s := strings.ToLower(raw[:colon])
	if alias, canonical := SchemeAlias(raw); alias == s {
		s = canonical
	}
	switch k := Kind(s); k {
	case MySQL, Postgres, SQLite:
		return k
	}
	return ""
}

func parse(raw string) (*Target, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errors.New("empty URL")
	}
	colon := strings.Index(raw, ":")
	if colon <= 0 {
		return nil, errors.New("missing scheme (use mysql://, postgres:// or sqlite://)")
	}
	rest := raw[colon+1:]
	switch KindOf(raw) {
	case SQLite:
		return parseSQLite(rest)
	case MySQL:
		return parseServer(MySQL, rest, DefaultMySQLPort)
	case Postgres:
		return parseServer(Postgres, rest, DefaultPostgresPort)
	default:
		return nil, &schemeError{scheme: raw[:colon]}
	}
}

// schemeError is returned by Parse unwrapped: the scheme alone explains it.
type schemeError struct{ scheme string }

func (e *schemeError) Error() string {
	return fmt.Sprintf("unknown target scheme %q (use mysql://, postgres:// or sqlite://)", e.scheme)
}

func parseSQLite(rest string) (*Target, error) {
	rest = strings.TrimPrefix(rest, "//")
	path, query, _ := strings.Cut(rest, "?")
	if path == "" {
		return nil, errors.New("missing database file path")
	}
	p, err := url.PathUnescape(path)
	if err != nil {
		return nil, fmt.Errorf("bad escape in file path: %w", err)
	}
	params, err := parseParams(query)
	if err != nil {
		return nil, err
	}
	return &Target{Kind: SQLite, Endpoints: []string{p}, Params: params}, nil
}

func parseServer(kind Kind, rest, defPort string) (*Target, error) {
	if !strings.HasPrefix(rest, "//") {
		return nil, errors.New("expected // after the scheme")
	}
	rest = rest[2:]
	t := &Target{Kind: kind}
	// The last '@' of the whole URL separates user info from hosts, so that
	// a password with an unescaped '@', '/', '?' or '#' still parses (and is
	// still redacted); the query is cut only after that. An '@' in a query
	// value is passed over (userInfoAt).
	if at := userInfoAt(rest); at >= 0 {
		user, pass, hasPass := strings.Cut(rest[:at], ":")
		var err error
		if t.User, err = url.PathUnescape(user); err != nil {
			return nil, errors.New("bad percent-escape in user name")
		}
		if hasPass {
			// The decode error would quote the password; keep it out.
			if t.Password, err = url.PathUnescape(pass); err != nil {
				return nil, errors.New("bad percent-escape in password")
			}
		}
		rest = rest[at+1:]
	}
	rest, query, _ := strings.Cut(rest, "?")
	hosts, db, hasSlash := strings.Cut(rest, "/")
	if hosts == "" {
		return nil, errors.New("missing host")
	}
	for _, h := range strings.Split(hosts, ",") {
		ep, err := parseHostPort(h, defPort)
		if err != nil {
			return nil, err
		}
		t.Endpoints = append(t.Endpoints, ep)
	}
	if !hasSlash || db == "" {
		return nil, errors.New("missing database name")
	}
	if strings.Contains(db, "/") {
		return nil, fmt.Errorf("database name %q contains '/'", db)
	}
	var err error
	if t.Database, err = url.PathUnescape(db); err != nil {
		return nil, fmt.Errorf("bad percent-escape in database name: %w", err)
	}
	if t.Params, err = parseParams(query); err != nil {
		return nil, err
	}
	return t, nil
}

// userInfoAt returns the index in rest (a URL after its "//") of the '@'
// that ends the user info, or -1. It is the last '@' whose user info does
// not read as hosts, a database and a query with a parameter ("h/db?k=v"):
// such an '@' is in a query value (application_name=a@b), and taking it
// would make the hosts, the database and a secret parameter part of the
// password. When every '@' reads so: the last one if a database path
// follows it (a password may hold '/', '?' and '='), else none (no user
// info: "h/db?application_name=a@b").
func userInfoAt(rest string) int {
	last := strings.LastIndex(rest, "@")
	for at := last; at >= 0; at = strings.LastIndex(rest[:at], "@") {
		if !queryLike(rest[:at]) {
			return at
		}
	}
	if last >= 0 && !strings.Contains(rest[last+1:], "/") {
		return -1
	}
	return last
}

// queryLike tells whether s has a '/' followed by a '?' followed by '='.
func queryLike(s string) bool {
	slash := strings.IndexByte(s, '/')
	if slash < 0 {
		return false
	}
	q := strings.IndexByte(s[slash:], '?')
	return q >= 0 && strings.IndexByte(s[slash+q:], '=') >= 0
}

// parseHostPort normalises one endpoint to host:port ([v6]:port).
func parseHostPort(h, defPort string) (string, error) {
	if h == "" {
		return "", errors.New("empty host in host list")
	}
	var host, port string
	if strings.HasPrefix(h, "[") {
		end := strings.Index(h, "]")
		if end < 0 {
			return "", fmt.Errorf("host %q: missing ']' in IPv6 address", h)
		}
		host = h[1:end]
		if z, err := url.PathUnescape(host); err == nil {
			host = z // a zone as a URL writes it: [fe80::1%25eth0] is fe80::1%eth0
		}
		switch after := h[end+1:]; {
		case after == "":
		case strings.HasPrefix(after, ":"):
			port = after[1:]
		default:
			return "", fmt.Errorf("host %q: unexpected %q after IPv6 address", h, after)
		}
	} else {
		if strings.Count(h, ":") > 1 {
			return "", fmt.Errorf("host %q: IPv6 addresses must be bracketed, e.g. [::1]:3306", h)
		}
		var hasPort bool
		host, port, hasPort = strings.Cut(h, ":")
		if hasPort && port == "" {
			return "", fmt.Errorf("host %q: empty port", h)
		}
	}
	if host == "" {
		return "", fmt.Errorf("host %q: empty host name", h)
	}
	if port == "" {
		port = defPort
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("host %q: invalid port %q", h, port)
	}
	return net.JoinHostPort(host, port), nil
}

// parseParams decodes a query string. Errors name the parameter, never its
// value, because a parameter may carry a secret.
func parseParams(query string) (map[string]string, error) {
	if query == "" {
		return nil, nil
	}
	params := make(map[string]string)
	for _, kv := range strings.Split(query, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		key, err := url.QueryUnescape(k)
		if err != nil || key == "" {
			return nil, errors.New("bad query parameter name")
		}
		if params[key], err = url.QueryUnescape(v); err != nil {
			return nil, fmt.Errorf("bad percent-escape in value of parameter %q", key)
		}
	}
	return params, nil
}
