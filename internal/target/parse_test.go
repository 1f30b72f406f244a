package target

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want Target
	}{
		{"mysql full", "mysql://bench:bench@127.0.0.1:3306/bp_test",
			Target{Kind: MySQL, User: "bench", Password: "bench", Endpoints: []string{"127.0.0.1:3306"}, Database: "bp_test"}},
		{"mysql default port", "mysql://root@db.example.com/tpcc",
			Target{Kind: MySQL, User: "root", Endpoints: []string{"db.example.com:3306"}, Database: "tpcc"}},
		{"multi host", "mysql://u:p@10.0.0.5:3306,10.0.0.6,10.0.0.7:4000/tpcc",
			Target{Kind: MySQL, User: "u", Password: "p", Endpoints: []string{"10.0.0.5:3306", "10.0.0.6:3306", "10.0.0.7:4000"}, Database: "tpcc"}},
		{"ipv6", "mysql://u@[::1]:3307,[fe80::1]/db",
			Target{Kind: MySQL, User: "u", Endpoints: []string{"[::1]:3307", "[fe80::1]:3306"}, Database: "db"}},
		{"ipv6 zone, percent-encoded as in URLs", "postgres://u@[fe80::1%25eth0]:5433/db",
			Target{Kind: Postgres, User: "u", Endpoints: []string{"[fe80::1%eth0]:5433"}, Database: "db"}},
		{"params passthrough", "mysql://u@h/db?tls=skip-verify&charset=utf8mb4",
			Target{Kind: MySQL, User: "u", Endpoints: []string{"h:3306"}, Database: "db", Params: map[string]string{"tls": "skip-verify", "charset": "utf8mb4"}}},
		{"percent-decoded credentials", "postgres://us%40er:p%3Aa%2Fss%40w@h:5433/db",
			Target{Kind: Postgres, User: "us@er", Password: "p:a/ss@w", Endpoints: []string{"h:5433"}, Database: "db"}},
		{"raw special chars in password", "postgres://u:p@s/s?w#rd@h/db",
			Target{Kind: Postgres, User: "u", Password: "p@s/s?w#rd", Endpoints: []string{"h:5432"}, Database: "db"}},
		{"'@' in a query value", "postgres://bench@h/db?sslmode=disable&application_name=a@b",
			Target{Kind: Postgres, User: "bench", Endpoints: []string{"h:5432"}, Database: "db", Params: map[string]string{"sslmode": "disable", "application_name": "a@b"}}},
		{"'@' in a query value with a '/' after it", "mysql://u:pw@h/db?x=a@b/c",
			Target{Kind: MySQL, User: "u", Password: "pw", Endpoints: []string{"h:3306"}, Database: "db", Params: map[string]string{"x": "a@b/c"}}},
		{"'@' in a query value, no user info", "postgres://h/db?application_name=a@b",
			Target{Kind: Postgres, Endpoints: []string{"h:5432"}, Database: "db", Params: map[string]string{"application_name": "a@b"}}},
		{"postgresql alias", "postgresql://u@h/db?sslmode=disable",
			Target{Kind: Postgres, User: "u", Endpoints: []string{"h:5432"}, Database: "db", Params: map[string]string{"sslmode": "disable"}}},
		{"no user", "postgres://h/db",
			Target{Kind: Postgres, Endpoints: []string{"h:5432"}, Database: "db"}},
		{"sqlite absolute", "sqlite:///var/lib/bench/a.db",
			Target{Kind: SQLite, Endpoints: []string{"/var/lib/bench/a.db"}}},
		{"sqlite relative", "sqlite://data/a.db",
			Target{Kind: SQLite, Endpoints: []string{"data/a.db"}}},
		{"sqlite opaque", "sqlite:rel.db",
			Target{Kind: SQLite, Endpoints: []string{"rel.db"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.raw)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.raw, err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Fatalf("Parse(%q)\n got %#v\nwant %#v", tt.raw, *got, tt.want)
			}
			if got.Password != "" && strings.Contains(got.String(), ":"+got.Password+"@") {
				t.Fatalf("String() leaks the password: %s", got)
			}
			// The redacted form parses back to the same target minus password.
			back, err := Parse(got.Redacted())
			if err != nil {
				t.Fatalf("Parse(Redacted()=%q): %v", got.Redacted(), err)
			}
			want := tt.want
			if want.Password != "" {
				want.Password = redactedPassword
			}
			if !reflect.DeepEqual(*back, want) {
				t.Fatalf("round trip of %q\n got %#v\nwant %#v", got.Redacted(), *back, want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	const secret = "s3cr3tPW"
	tests := []struct {
		name, raw, wantErr string
	}{
		{"unknown scheme", "oracle://u:" + secret + "@h/db", `unknown target scheme "oracle" (use mysql://, postgres:// or sqlite://)`},
		{"no scheme", "localhost:3306", `unknown target scheme "localhost"`},
		{"empty", "", "empty URL"},
		{"missing database", "mysql://bench:" + secret + "@127.0.0.1:3306", `invalid target URL "mysql://bench:***@127.0.0.1:3306": missing database name`},
		{"missing database slash", "mysql://bench:" + secret + "@127.0.0.1:3306/", "missing database name"},
		{"missing host", "mysql://bench:" + secret + "@/db", "missing host"},
		{"empty host in list", "mysql://u:" + secret + "@a,,b/db", "empty host in host list"},
		{"bad port", "postgres://u:" + secret + "@h:99999/db", `invalid port "99999"`},
		{"non-numeric port", "postgres://u:" + secret + "@h:abc/db", `invalid port "abc"`},
		{"unbracketed ipv6", "mysql://u:" + secret + "@::1:3306/db", "IPv6 addresses must be bracketed"},
		{"bad escape in password", "mysql://u:" + secret + "%zz@h/db", "bad percent-escape in password"},
		{"no slashes", "mysql:" + secret + "@h/db", "expected // after the scheme"},
		{"sqlite no path", "sqlite://", "missing database file path"},
		{"secret param", "mysql://u@h/db?password=" + secret + "%zz", `bad percent-escape in value of parameter "password"`},
		{"nested path", "mysql://u:" + secret + "@h/db/x", `contains '/'`},
		{"'@' in a query value, no database", "postgres://bench@h?sslpassword=" + secret + "&application_name=a@b", "missing database name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.raw)
			if err == nil {
				t.Fatalf("Parse(%q): want error", tt.raw)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Parse(%q) error %q, want it to contain %q", tt.raw, err, tt.wantErr)
			}
			if strings.Contains(err.Error(), secret) {
				t.Fatalf("error leaks the password: %v", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
		})
	}
}

func TestRedacted(t *testing.T) {
	tests := []struct {
		name string
		tg   Target
		want string
	}{
		{"password", Target{Kind: MySQL, User: "bench", Password: "hunter2", Endpoints: []string{"h:3306", "g:3306"}, Database: "db"},
			"mysql://bench:***@h:3306,g:3306/db"},
		{"no password", Target{Kind: Postgres, User: "bench", Endpoints: []string{"h:5432"}, Database: "db"},
			"postgres://bench@h:5432/db"},
		{"sensitive params", Target{Kind: Postgres, Endpoints: []string{"h:5432"}, Database: "db", Params: map[string]string{"sslpassword": "hunter2", "sslmode": "require"}},
			"postgres://h:5432/db?sslmode=require&sslpassword=%2A%2A%2A"},
		{"sqlite", Target{Kind: SQLite, Endpoints: []string{"/tmp/x.db"}}, "sqlite:///tmp/x.db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.tg.Redacted(); got != tt.want {
				t.Fatalf("Redacted() = %q, want %q", got, tt.want)
			}
			if got := tt.tg.String(); strings.Contains(got, "hunter2") {
				t.Fatalf("String() leaks: %q", got)
			}
		})
	}
}

func TestRedactRaw(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"mysql://u:pw@h/db", "mysql://u:***@h/db"},
		{"mysql://u:p@w/x?y@h/db?a=1", "mysql://u:***@h/db?a=1"},
		{"mysql://u@h/db?password=x&b=2", "mysql://u@h/db?password=***&b=2"},
		{"postgres://bench@h?sslpassword=s3cret&application_name=a@b", "postgres://***@b"},
		{"postgres://bench@h/db?sslpassword=s3cret&a=x@b", "postgres://bench@h/db?sslpassword=***&a=x@b"},
		{"sqlite:x.db", "sqlite:x.db"},
	}
	for _, tt := range tests {
		if got := redactRaw(tt.raw); got != tt.want {
			t.Errorf("redactRaw(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestSchemeAlias(t *testing.T) {
	for raw, want := range map[string][2]string{
		"tidb://u@h:4000/db": {"tidb", "mysql"}, "MariaDB://u@h/db": {"mariadb", "mysql"}, "pg://u@h/db": {"pg", "postgres"},
		"postgresql://u@h/db": {"postgresql", "postgres"}, "sqlite3:x.db": {"sqlite3", "sqlite"},
		"mysql://u@h/db": {"", ""}, "oracle://x": {"", ""}, "nocolon": {"", ""},
	} {
		a, c := SchemeAlias(raw)
		if a != want[0] || c != want[1] {
			t.Errorf("SchemeAlias(%q) = %q, %q; want %q", raw, a, c, want)
		}
		if _, err := Parse(raw); want[0] != "" && err != nil {
			t.Errorf("Parse(%q) rejects an alias: %v", raw, err)
		}
	}
}

// KindOf names the kind of a URL's scheme as Parse reads it, also for a
// URL Parse refuses (a refused run's record says what it was refused
// against), and no kind for an unknown scheme.
func TestKindOf(t *testing.T) {
	for raw, want := range map[string]Kind{
		"mysql://u@h/db": MySQL, "tidb://u@h:4000/db": MySQL, "MariaDB://u@h/db": MySQL, "mysql://u@h:3306": MySQL,
		"pg://u@h/db": Postgres, "postgresql://u@h/db": Postgres, "postgres://u@h/db": Postgres,
		"sqlite3:x.db": SQLite, "sqlite:///tmp/x.db": SQLite,
		"oracle://x": "", "nocolon": "", "": "",
	} {
		if got := KindOf(raw); got != want {
			t.Errorf("KindOf(%q) = %q, want %q", raw, got, want)
		}
	}
}
