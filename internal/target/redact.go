package target

import (
	"net/url"
	"sort"
	"strings"
)

// redactedPassword replaces a password in every printed form of a target.
const redactedPassword = "***"

// String is Redacted: a Target prints without its password.
func (t *Target) String() string { return t.Redacted() }

// Redacted renders the target as a URL that parses back to the same target
// except for the password, which is shown as *** when one was set. Parameter
// values whose name suggests a secret (containing "pass", "secret" or "key")
// are masked too.
func (t *Target) Redacted() string {
	if t == nil {
		return "<nil target>"
	}
	var b strings.Builder
	if t.Kind == SQLite {
		b.WriteString("sqlite://")
		if len(t.Endpoints) > 0 {
			b.WriteString(t.Endpoints[0])
		}
		writeParams(&b, t.Params)
		return b.String()
	}
	b.WriteString(string(t.Kind))
	b.WriteString("://")
	if t.User != "" || t.Password != "" {
		b.WriteString(escapeUserinfo(t.User))
		if t.Password != "" {
			b.WriteString(":" + redactedPassword)
		}
		b.WriteByte('@')
	}
	b.WriteString(strings.Join(t.Endpoints, ","))
	b.WriteByte('/')
	b.WriteString(url.PathEscape(t.Database))
	writeParams(&b, t.Params)
	return b.String()
}

func escapeUserinfo(s string) string {
	// url.UserPassword escapes exactly what userinfo needs.
	return url.User(s).String()
}

func writeParams(b *strings.Builder, params map[string]string) {
	if len(params) == 0 {
		return
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		v := params[k]
		if sensitiveParam(k) {
			v = redactedPassword
		}
		b.WriteString(url.QueryEscape(k) + "=" + url.QueryEscape(v))
	}
}

// sensitiveParam reports whether a parameter's value must not be printed.
func sensitiveParam(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "pass") || strings.Contains(n, "secret") || strings.Contains(n, "key")
}

// redactRaw masks the password of a URL that may not parse: everything
// between the first ':' of the user info and the '@' that ends it
// (userInfoAt), all of a user info holding '?', '&' or '=', plus the values
// of sensitive query parameters. It mirrors parseServer's split.
func redactRaw(raw string) string {
	prefix, rest := "", raw
	slashes := true
	i := strings.Index(raw, "://")
	if i < 0 {
		// Malformed ("mysql:u:pw@h/db"): treat all user info as secret.
		i, slashes = strings.Index(raw, ":"), false
	}
	if i >= 0 {
		skip := i + 1
		if slashes {
			skip = i + 3
		}
		prefix, rest = raw[:skip], raw[skip:]
		if at := userInfoAt(rest); at >= 0 {
			c := strings.Index(rest[:at], ":")
			switch {
			case !slashes:
				prefix += redactedPassword + "@"
			case c >= 0:
				prefix += rest[:c+1] + redactedPassword + "@"
			case strings.ContainsAny(rest[:at], "?&="):
				// No password, but what reads as a query: it may hold
				// secret parameters.
				prefix += redactedPassword + "@"
			default:
				prefix += rest[:at+1]
			}
			rest = rest[at+1:]
		}
	}
	base, query, hasQuery := strings.Cut(rest, "?")
	if !hasQuery {
		return prefix + base
	}
	parts := strings.Split(query, "&")
	for j, kv := range parts {
		if k, _, ok := strings.Cut(kv, "="); ok && sensitiveParam(k) {
			parts[j] = k + "=" + redactedPassword
		}
	}
	return prefix + base + "?" + strings.Join(parts, "&")
}
