package results

import (
	"regexp"
	"strings"
)

// UserInfo splits a URL into its user-info ("user[:password]") and whether
// one is present. Multi-host URLs (h1:p,h2:p) are handled, unlike net/url.
func UserInfo(u string) (string, bool) {
	i := strings.Index(u, "://")
	if i < 0 {
		return "", false
	}
	rest := u[i+3:]
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	at := strings.LastIndexByte(rest[:end], '@')
	if at < 0 {
		return "", false
	}
	return rest[:at], true
}

var pwParam = regexp.MustCompile(`(?i)([?&]password=)[^&]*`)

// Redact removes any password from a target URL (user-info or a password
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
