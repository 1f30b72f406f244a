package sweep

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"benchpress/internal/results"
)

// Redact removes any password from a target URL (user-info or a password
// query parameter). It is safe to print the result.
func Redact(u string) string { return results.Redact(u) }

// userinfo splits a URL into its user-info and whether one is present.
func userinfo(u string) (string, bool) { return results.UserInfo(u) }

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// ExpandURL resolves a target's ${VAR} references and password_env with
// getenv (nil: no variable is set). It fails naming every unset variable.
func ExpandURL(t TargetDef, getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
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
