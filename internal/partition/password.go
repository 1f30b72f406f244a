package partition

import (
	"net/url"
	"strings"

	"github.com/spf13/pflag"
)

// ChildPasswordEnv is the environment variable that hands a child process
// (a partition run by --processes, a sweep step's) its target's password:
// a command line is visible to every user of the machine (ps, /proc), so
// the password never goes on it.
const ChildPasswordEnv = "BENCHPRESS_CHILD_PASSWORD"

// SplitPassword returns the URL u without the password of its user-info and
// that password, percent-decoded ("" when u has none). The user-info ends at
// the URL's last '@', as target.Parse reads it.
func SplitPassword(u string) (string, string) {
	i := strings.Index(u, "://")
	if i < 0 {
		return u, ""
	}
	if scheme := strings.ToLower(u[:i]); scheme == "sqlite" || scheme == "sqlite3" {
		return u, "" // a file path: an '@' in it is no user-info
	}
	rest := u[i+3:]
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return u, ""
	}
	user, pass, ok := strings.Cut(rest[:at], ":")
	if !ok || pass == "" {
		return u, ""
	}
	if dec, err := url.PathUnescape(pass); err == nil {
		pass = dec
	}
	return u[:i+3] + user + rest[at:], pass
}

// ChildEnv is what the children of ChildArgs need in their environment
// besides what they inherit: the password of the --target URL on fs under
// ChildPasswordEnv, or nothing when the URL has none.
func ChildEnv(fs *pflag.FlagSet) []string {
	if f := fs.Lookup("target"); f != nil {
		if _, pw := SplitPassword(f.Value.String()); pw != "" {
			return []string{ChildPasswordEnv + "=" + pw}
		}
	}
	return nil
}
