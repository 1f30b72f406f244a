package sweep

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
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

// sysbenchTests are the sysbench test names benchpress implements.
var sysbenchTests = []string{
	"bulk_insert", "oltp_delete", "oltp_insert", "oltp_point_select",
	"oltp_read_only", "oltp_read_write", "oltp_update_index",
	"oltp_update_non_index", "oltp_write_only", "select_random_points",
	"select_random_ranges",
}

// CheckWorkload returns "" when w names a known workload, else what is wrong:
// tpcc, sysbench/<test> or ycsb/<a-f|custom>.
func CheckWorkload(w string) string {
	switch {
	case w == "tpcc":
		return ""
	case strings.HasPrefix(w, "sysbench/"):
		t := strings.TrimPrefix(w, "sysbench/")
		for _, k := range sysbenchTests {
			if k == t {
				return ""
			}
		}
		return fmt.Sprintf("unknown sysbench test %q (known: %s)", t, strings.Join(sysbenchTests, ", "))
	case strings.HasPrefix(w, "ycsb/"):
		t := strings.TrimPrefix(w, "ycsb/")
		if len(t) == 1 && t[0] >= 'a' && t[0] <= 'f' || t == "custom" {
			return ""
		}
		return fmt.Sprintf("unknown YCSB workload %q (want a, b, c, d, e, f or custom)", t)
	}
	return fmt.Sprintf("unknown workload %q (want tpcc, sysbench/<test> or ycsb/<a-f>)", w)
}

var caseIDRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// checkCaseID reports why id cannot name a results directory ("" if fine).
func checkCaseID(id string) string {
	if caseIDRe.MatchString(id) {
		return ""
	}
	return fmt.Sprintf("case id %q must start with a letter or digit and use only letters, digits, '.', '_' and '-'", id)
}

var schemes = map[string]bool{"mysql": true, "postgres": true, "postgresql": true, "sqlite": true}

// checkTargetURL reports what is wrong with a target URL ("" if fine) and
// whether it carries an inline password.
func checkTargetURL(u string) (problem string, inlinePassword bool) {
	i := strings.Index(u, "://")
	if i <= 0 {
		return fmt.Sprintf("target URL %q has no scheme (want mysql://, postgres:// or sqlite://)", Redact(u)), false
	}
	if s := u[:i]; !schemes[s] {
		return fmt.Sprintf("unsupported scheme %q (want mysql, postgres or sqlite)", s), false
	}
	user, _ := userinfo(u)
	if j := strings.IndexByte(user, ':'); j >= 0 && !strings.HasPrefix(user[j+1:], "${") {
		return "", true
	}
	return "", false
}

func knownList(m map[string]bool) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}
