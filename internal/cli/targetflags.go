package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/target"
)

// targetFlags are the connection flags shared by every command that talks to
// a database.
type targetFlags struct {
	URL           string
	PasswordEnv   string
	Isolation     string
	StatementMode string
	ConnTimeout   time.Duration
}

const targetHelp = `database URL:
  mysql://user[:password]@host:port[,host:port...]/db?params   (MySQL, MariaDB, TiDB, proxies)
  postgres://user[:password]@host:port[,host:port...]/db?params (PostgreSQL, openGauss)
  sqlite:///path/to/file.db                                       (embedded)
Several hosts spread connections round-robin. Prefer --password-env, MYSQL_PWD or
PGPASSWORD over a password in the URL; it is never printed.`

func (f *targetFlags) register(fs *pflag.FlagSet, defaultURL string) {
	fs.StringVar(&f.URL, "target", defaultURL, targetHelp)
	fs.StringVar(&f.PasswordEnv, "password-env", "", "read the password from this environment variable")
	fs.StringVar(&f.Isolation, "isolation", "", "transaction isolation: read-committed, repeatable-read, serializable, read-uncommitted\n(default: the server's, i.e. REPEATABLE READ on MySQL/InnoDB, READ COMMITTED on PostgreSQL, SERIALIZABLE on SQLite)")
	fs.StringVar(&f.StatementMode, "statement-mode", "prepared", "prepared (server-side prepared statements; on MySQL run by benchpress's own protocol client, BENCHPRESS_MYSQL_CLIENT=driver to use go-sql-driver) or text (plain SQL, for proxies that mishandle prepared statements)")
	fs.DurationVar(&f.ConnTimeout, "connect-timeout", 10*time.Second, "timeout for one connection attempt")
}

var isolations = map[string]bool{"": true, "read-uncommitted": true, "read-committed": true, "repeatable-read": true, "serializable": true}

// resolve parses the URL, fills the password from the environment and
// validates the options; every problem is a UsageError.
func (f *targetFlags) resolve(app *App) (*target.Target, target.Options, error) {
	var opts target.Options
	if strings.TrimSpace(f.URL) == "" {
		return nil, opts, usagef("--target is required (for example mysql://bench@127.0.0.1:3306/tpcc)")
	}
	t, err := target.Parse(f.URL)
	if err != nil {
		return nil, opts, &UsageError{Err: err}
	}
	if t.Password == "" && t.Kind != target.SQLite {
		switch {
		case f.PasswordEnv != "":
			v := app.Getenv(f.PasswordEnv)
			if v == "" {
				return nil, opts, usagef("--password-env %s: the variable is empty or not set", f.PasswordEnv)
			}
			t.Password = v
		case t.Kind == target.MySQL:
			t.Password = app.Getenv("MYSQL_PWD")
		case t.Kind == target.Postgres:
			t.Password = app.Getenv("PGPASSWORD")
		}
	}
	iso := strings.ToLower(strings.ReplaceAll(f.Isolation, "_", "-"))
	if !isolations[iso] {
		return nil, opts, usagef("--isolation %q: use read-uncommitted, read-committed, repeatable-read or serializable", f.Isolation)
	}
	opts.Isolation = iso
	switch f.StatementMode {
	case "prepared", "":
		opts.StatementMode = target.Prepared
	case "text":
		opts.StatementMode = target.Text
	default:
		return nil, opts, usagef("--statement-mode %q: use prepared or text", f.StatementMode)
	}
	if f.ConnTimeout <= 0 {
		return nil, opts, usagef("--connect-timeout must be > 0")
	}
	opts.ConnectTimeout = f.ConnTimeout
	return t, opts, nil
}

// connect resolves the flags and returns a Connector.
func (f *targetFlags) connect(app *App) (*target.Connector, error) {
	t, opts, err := f.resolve(app)
	if err != nil {
		return nil, err
	}
	c, err := target.NewConnector(t, opts)
	if err != nil {
		return nil, fmt.Errorf("target %s: %w", t.Redacted(), err)
	}
	return c, nil
}
