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

// RedactSecret masks password in text only where it appears as a
// credential: as a URL's user-info password ("user:PASSWORD@", also
// percent-encoded), or as the value of a password key in a DSN or a
// properties list ("password=PASSWORD", "passwd: PASSWORD", "pwd=...",
// "password PASSWORD"). The
// same characters elsewhere in the text (a table named "sysbench" when the
// password is "bench") are not touched.
func RedactSecret(text, password string) string {
	if password == "" {
		return text
	}
	for _, pw := range uniq(password, url.QueryEscape(password), url.PathEscape(password)) {
		q := regexp.QuoteMeta(pw)
		userinfo := regexp.MustCompile(`(://[^\s/@:]*:)` + q + `(@)`)
		text = userinfo.ReplaceAllString(text, "${1}REDACTED${2}")
		kv := regexp.MustCompile(`(?i)((?:password|passwd|pwd|pass)(?:\s*[=:]\s*|\s+)["']?)` + q + `(["'&;,)\s]|$)`)
		text = kv.ReplaceAllString(text, "${1}REDACTED${2}")
	}
	return text
}

func uniq(ss ...string) []string {
	var out []string
	for _, s := range ss {
		dup := false
		for _, o := range out {
			dup = dup || o == s
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}

// maskedProperty is an option item with its value masked when it is a
// name=value property whose name says it is a password (YCSB's -p
// db.passwd=..., which benchpress ignores and `ycsb run` saves masked), or
// a URL's password in one (db.url=...?password=...):
// the sweep writes such items to plan.yaml, the dry run, a refused step's
// config and its children's command lines, which every user can read.
func maskedProperty(item string) string {
	if k, v, ok := strings.Cut(item, "="); ok {
		return k + "=" + results.MaskProperty(k, v)
	}
	return item
}
