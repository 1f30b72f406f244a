package target

// Discard is a scan destination that drops the column's value, NULL
// included (display-only fields such as TPC-C's timestamps), on every
// backend without allocating: the MySQL protocol client hands it the
// column's text (UnmarshalText), the PostgreSQL lean path skips it, and
// database/sql and pgx call Scan.
type Discard struct{}

// Scan implements sql.Scanner.
func (*Discard) Scan(any) error { return nil }

// UnmarshalText takes a column's text from the MySQL protocol client.
func (*Discard) UnmarshalText([]byte) error { return nil }
