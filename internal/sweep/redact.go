package sweep

import (
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
)

// userinfo splits a URL into its user-info ("user[:password]") and whether
// one is present. Multi-host URLs (h1:p,h2:p) are handled, unlike net/url.
func userinfo(u string) (string, bool) {
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
	if ui, ok := userinfo(u); ok {
		if j := strings.IndexByte(ui, ':'); j >= 0 {
			i := strings.Index(u, "://") + 3
			u = u[:i] + ui[:j] + u[i+len(ui):]
		}
	}
	return pwParam.ReplaceAllString(u, "${1}REDACTED")
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// ExpandURL resolves a target's ${VAR} references and password_env with
// getenv (os.Getenv when nil). It fails naming every unset variable.
func ExpandURL(t TargetDef, getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var missing []string
	u := envRef.ReplaceAllStringFunc(t.URL, func(ref string) string {
		name := envRef.FindStringSubmatch(ref)[1]
		v := getenv(name)
		if v == "" {
			missing = append(missing, name)
		}
		return v
	})
	if t.PasswordEnv != "" {
		pw := getenv(t.PasswordEnv)
		if pw == "" {
			missing = append(missing, t.PasswordEnv)
		} else if ui, ok := userinfo(u); ok && !strings.Contains(ui, ":") {
			i := strings.Index(u, "://") + 3
			u = u[:i] + url.UserPassword(ui, pw).String() + u[i+len(ui):]
		}
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("target %q: environment variable(s) not set: %s", t.Name, strings.Join(missing, ", "))
	}
	return u, nil
}
