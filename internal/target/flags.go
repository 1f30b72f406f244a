package target

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/usage"
)

// Flags are the connection options every command (and every sweep case)
// that talks to a database declares: the URL, where the password comes
// from, isolation, statement mode, the MySQL client and the connect timeout.
type Flags struct {
	URL           string
	PasswordEnv   string
	Isolation     string
	StatementMode string
	MySQLClient   string
	SocketIO      string
	ConnTimeout   time.Duration
}

// Env is what resolving Flags needs from the process edge: the environment
// lookup (for --password-env, MYSQL_PWD, PGPASSWORD) and the default MySQL
// client (cmd/benchpress reads BENCHPRESS_MYSQL_CLIENT into it).
type Env struct {
	Getenv      func(string) string
	MySQLClient string
}

const targetHelp = `database URL:
  mysql://user[:password]@host:port[,host:port...]/db?params   (MySQL, MariaDB, TiDB, proxies)
  postgres://user[:password]@host:port[,host:port...]/db?params (PostgreSQL, openGauss)
  sqlite:///path/to/file.db                                       (embedded)
Several hosts spread connections round-robin. Prefer --password-env, MYSQL_PWD or
PGPASSWORD over a password in the URL; it is never printed.`

// Register declares the connection flags on fs with defaultURL as --target's default.
func (f *Flags) Register(fs *pflag.FlagSet, defaultURL string) {
	fs.StringVar(&f.URL, "target", defaultURL, targetHelp)
	fs.StringVar(&f.PasswordEnv, "password-env", "", "read the password from this environment variable")
	fs.StringVar(&f.Isolation, "isolation", "", "transaction isolation: read-committed, repeatable-read, serializable, read-uncommitted\n(default: the server's, i.e. REPEATABLE READ on MySQL/InnoDB, READ COMMITTED on PostgreSQL, SERIALIZABLE on SQLite)")
	fs.StringVar(&f.StatementMode, "statement-mode", "prepared", "prepared (server-side prepared statements; on MySQL run by benchpress's own protocol client, see --mysql-client, and fitted to max_prepared_stmt_count: TPC-C prepares what each session's share allows and runs the rest as text, other workloads are refused when they do not fit) or text (plain SQL, for proxies that mishandle prepared statements)")
	fs.StringVar(&f.MySQLClient, "mysql-client", "", "MySQL only: mywire (benchpress's protocol client for prepared statements where the session allows it) or driver\n(everything through go-sql-driver/mysql); default mywire, or BENCHPRESS_MYSQL_CLIENT")
	fs.StringVar(&f.SocketIO, "socket-io", "auto", "how sessions wait for replies: blocking (each terminal's thread blocks in read on its own socket, as a C client does;\nthe run sizes GOMAXPROCS to the terminals), poller (Go's network poller, one thread for many sockets) or auto\n(blocking up to 256 terminals, poller above; Linux only, elsewhere always poller). Blocking needs GOMAXPROCS >= terminals:\nwith GOMAXPROCS pinned lower in the environment the run uses the poller")
	fs.DurationVar(&f.ConnTimeout, "connect-timeout", 10*time.Second, "timeout for one connection attempt")
}

var isolations = map[string]bool{"": true, "read-uncommitted": true, "read-committed": true, "repeatable-read": true, "serializable": true}

// Resolve parses the URL, fills the password from the environment and
// validates the options; every problem is a *usage.Error.
func (f *Flags) Resolve(env Env) (*Target, Options, error) {
	var opts Options
	if strings.TrimSpace(f.URL) == "" {
		return nil, opts, usage.Errorf("--target is required (for example mysql://bench@127.0.0.1:3306/tpcc)")
	}
	t, err := Parse(f.URL)
	if err != nil {
		return nil, opts, &usage.Error{Err: err}
	}
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if t.Password == "" && t.Kind != SQLite {
		switch {
		case f.PasswordEnv != "":
			v := getenv(f.PasswordEnv)
			if v == "" {
				return nil, opts, usage.Errorf("--password-env %s: the variable is empty or not set", f.PasswordEnv)
			}
			t.Password = v
		case t.Kind == MySQL:
			t.Password = getenv("MYSQL_PWD")
		case t.Kind == Postgres:
			t.Password = getenv("PGPASSWORD")
		}
	}
	if opts, err = f.options(env); err != nil {
		return nil, opts, err
	}
	return t, opts, nil
}

// options validates everything but the URL.
func (f *Flags) options(env Env) (Options, error) {
	var opts Options
	iso := strings.ToLower(strings.ReplaceAll(f.Isolation, "_", "-"))
	if !isolations[iso] {
		return opts, usage.Errorf("--isolation %q: use read-uncommitted, read-committed, repeatable-read or serializable", f.Isolation)
	}
	opts.Isolation = iso
	switch f.StatementMode {
	case "prepared", "":
		opts.StatementMode = Prepared
	case "text":
		opts.StatementMode = Text
	default:
		return opts, usage.Errorf("--statement-mode %q: use prepared or text", f.StatementMode)
	}
	client := f.MySQLClient
	if client == "" {
		client = env.MySQLClient
	}
	switch client {
	case "", "mywire":
		opts.MySQLClient = MySQLClientWire
	case "driver":
		opts.MySQLClient = MySQLClientDriver
	default:
		return opts, usage.Errorf("--mysql-client %q: use mywire or driver", client)
	}
	sio, err := ParseSocketIO(f.SocketIO)
	if err != nil {
		return opts, usage.Errorf("--socket-io %v", err)
	}
	opts.SocketIO = sio
	if f.ConnTimeout <= 0 {
		return opts, usage.Errorf("--connect-timeout must be > 0")
	}
	opts.ConnectTimeout = f.ConnTimeout
	return opts, nil
}

// Check validates the flags without a URL that can be parsed yet (a sweep
// plan's URL may hold ${VAR} references): every option but the URL.
func (f *Flags) Check(env Env) error {
	_, err := f.options(env)
	return err
}

// Connect resolves the flags and returns a Connector.
func (f *Flags) Connect(env Env) (*Connector, error) {
	t, opts, err := f.Resolve(env)
	if err != nil {
		return nil, err
	}
	c, err := NewConnector(t, opts)
	if err != nil {
		return nil, fmt.Errorf("target %s: %w", t.Redacted(), err)
	}
	return c, nil
}
