package target

import (
	"strconv"
	"strings"
)

// rewritePlaceholders turns '?' placeholders into PostgreSQL's $1..$n. A '?'
// inside a single-quoted literal, a double-quoted identifier, a -- line
// comment or a /* */ block comment is left alone. Dollar-quoted bodies and
// E” backslash escapes are not recognised; SQL given to Conn must not rely
// on them together with '?'.
func rewritePlaceholders(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		ch := q[i]
		switch {
		case ch == '\'' || ch == '"':
			end := strings.IndexByte(q[i+1:], ch)
			if end < 0 {
				b.WriteString(q[i:])
				return b.String()
			}
			b.WriteString(q[i : i+end+2])
			i += end + 1
			continue
		case ch == '-' && strings.HasPrefix(q[i:], "--"):
			end := strings.IndexByte(q[i:], '\n')
			if end < 0 {
				b.WriteString(q[i:])
				return b.String()
			}
			b.WriteString(q[i : i+end+1])
			i += end
			continue
		case ch == '/' && strings.HasPrefix(q[i:], "/*"):
			end := strings.Index(q[i+2:], "*/")
			if end < 0 {
				b.WriteString(q[i:])
				return b.String()
			}
			b.WriteString(q[i : i+end+4])
			i += end + 3
			continue
		case ch == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(ch)
	}
	return b.String()
}
