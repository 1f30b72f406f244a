package sweep

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"benchpress/internal/registry"
	"benchpress/internal/target"
	_ "benchpress/internal/workload/all" // the workloads plans may name
)

// Problem is one thing wrong with a plan file, located by line.
type Problem struct {
	File string
	Line int // 1-based; 0 when unknown
	Msg  string
}

// String formats the problem as "file:line: msg".
func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Msg)
}

// PlanError lists every problem found in a plan file at once.
type PlanError struct {
	File     string
	Problems []Problem
}

// Error renders a header line and one indented line per problem.
func (e *PlanError) Error() string {
	var b strings.Builder
	n := len(e.Problems)
	word := "problems"
	if n == 1 {
		word = "problem"
	}
	fmt.Fprintf(&b, "invalid plan %s: %d %s", e.File, n, word)
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// CheckWorkload returns "" when w names a registered workload ("tpcc",
// "sysbench/<test>", "ycsb/<a-f|custom>"), else what is wrong: the rule is
// the CLI's (package registry).
func CheckWorkload(w string) string {
	if _, _, err := registry.Lookup(w); err != nil {
		return err.Error()
	}
	return ""
}

var caseIDRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// checkCaseID reports why id cannot name a results directory ("" if fine).
func checkCaseID(id string) string {
	if caseIDRe.MatchString(id) {
		return ""
	}
	return fmt.Sprintf("case id %q must start with a letter or digit and use only letters, digits, '.', '_' and '-'", id)
}

// checkTargetURL reports what is wrong with a target URL ("" if fine) and
// whether it carries an inline password. The URL is parsed by the CLI's own
// rule (target.Parse), with every ${VAR} reference standing in for a value.
func checkTargetURL(u string) (problem string, inlinePassword bool) {
	if _, err := target.Parse(envRef.ReplaceAllString(u, "x")); err != nil {
		return strings.ReplaceAll(err.Error(), `"`+envRef.ReplaceAllString(u, "x")+`"`, `"`+Redact(u)+`"`), false
	}
	user, _ := userinfo(u)
	if j := strings.IndexByte(user, ':'); j >= 0 && !strings.HasPrefix(user[j+1:], "${") {
		return "", true
	}
	return "", false
}

// checkPasswordEnv reports why t's password_env could not be used ("" if
// it can): ExpandURL puts the password after the URL's user name, so the
// URL needs one and no password of its own (either would drop the
// variable's password without a word and the step would fail to log in).
func checkPasswordEnv(t TargetDef) string {
	if t.PasswordEnv == "" || strings.HasPrefix(t.URL, "sqlite:") {
		return ""
	}
	user, ok := userinfo(t.URL)
	switch {
	case !ok || user == "":
		return "password_env needs a user name in the URL (mysql://USER@host/db)"
	case strings.Contains(user, ":"):
		return "password_env and a password in the URL: keep one"
	}
	return ""
}

func knownList(m map[string]bool) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}
