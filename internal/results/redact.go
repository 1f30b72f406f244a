package results

import (
	"net/url"
	"regexp"
	"strings"
)

// UserInfo splits a URL into its user-info ("user[:password]") and whether
// one is present. Multi-host URLs (h1:p,h2:p) are handled, unlike net/url.
// The user-info ends at the URL's last '@', the rule target.Parse connects
// by, so that a password with an unescaped '/', '?' or '@' (a base64
// password from ${VAR}) is found, and redacted, whole.
//
// A sqlite:// URL has none (its path may hold '@' and ':').
func UserInfo(u string) (string, bool) {
	i := strings.Index(u, "://")
	if i < 0 || strings.HasPrefix(u, "sqlite:") {
		return "", false
	}
	rest := u[i+3:]
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return "", false
	}
	return rest[:at], true
}

// pwParam matches a query parameter whose name suggests a secret (it
// contains "pass", "secret" or "key", target's rule) and its value.
var pwParam = regexp.MustCompile(`(?i)([?&][^=&]*(?:pass|secret|key)[^=&]*=)[^&]*`)

// Redact removes any password from a target URL (user-info or a secret
// query parameter). It is safe to print the result.
func Redact(u string) string {
	if ui, ok := UserInfo(u); ok {
		if j := strings.IndexByte(ui, ':'); j >= 0 {
			i := strings.Index(u, "://") + 3
			u = u[:i] + ui[:j] + u[i+len(ui):]
		}
	}
	return pwParam.ReplaceAllString(u, "${1}REDACTED")
}

// MaskProperty is a workload property's value as it may be saved or shown:
// masked when the name says it holds a password (YCSB's JDBC binding:
// db.passwd; others: *.password, pwd), a URL in it without its password
// (db.url=jdbc:mysql://h/db?password=...), else as it is.
func MaskProperty(name, value string) string {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "pass"), strings.Contains(n, "pwd"):
		return "xxxxx"
	case strings.Contains(value, "://"):
		return Redact(value)
	}
	return value
}

// RedactHTTP removes the password of an http(s) URL (an exporter behind
// basic auth: http://user:pw@host:9100/metrics), read by net/url's rules,
// under which an '@' in the path or query is not the user-info's end.
// A URL that does not parse is returned as Redact makes it.
func RedactHTTP(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return Redact(raw)
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.User(u.User.Username())
		}
	}
	return u.String()
}
