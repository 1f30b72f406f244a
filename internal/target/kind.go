package target

import "strings"

// Kind is the protocol family of a target.
type Kind string

const (
	MySQL    Kind = "mysql"    // MySQL, MariaDB, TiDB and MySQL-protocol proxies
	Postgres Kind = "postgres" // PostgreSQL, openGauss-style servers
	SQLite   Kind = "sqlite"   // the embedded default
)

// Placeholder returns the n-th (1-based) bind placeholder in this kind's
// native syntax.
func (k Kind) Placeholder(n int) string {
	if k == Postgres {
		return "$" + itoa(n)
	}
	return "?"
}

// ForUpdate is the row-locking suffix for SELECTs; empty on SQLite, where the
// write transaction (BEGIN IMMEDIATE) already serialises writers.
func (k Kind) ForUpdate() string {
	if k == SQLite {
		return ""
	}
	return " FOR UPDATE"
}

// QuoteIdent quotes an identifier for this kind, doubling the quote
// character inside it (MySQL backticks, SQL's double quotes elsewhere).
func (k Kind) QuoteIdent(s string) string {
	q := `"`
	if k == MySQL {
		q = "`"
	}
	return q + strings.ReplaceAll(s, q, q+q) + q
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
