package target

import "time"

// Target is a parsed --target URL. Password is never printed: String() and
// Redacted() omit it.
//
//	mysql://user[:password]@host:port[,host:port...]/db?params
//	postgres://user[:password]@host:port[,host:port...]/db?params   (also postgresql://)
//	sqlite:///path/to/file.db   (sqlite://relative/path.db is relative to the working dir)
type Target struct {
	Kind      Kind
	User      string
	Password  string
	Endpoints []string          // host:port for servers; exactly one file path for SQLite
	Database  string            // empty for SQLite
	Params    map[string]string // query parameters passed through to the driver (TLS and others)
}

// Options shape every session a Connector opens.
type Options struct {
	// Isolation is "" (the documented per-database default) or one of
	// read-uncommitted, read-committed, repeatable-read, serializable.
	Isolation string
	// StatementMode is Prepared (default) or Text.
	StatementMode StatementMode
	// ConnectTimeout bounds one connection attempt (default 10s).
	ConnectTimeout time.Duration
	// MySQLClient chooses who runs prepared statements on MySQL sessions:
	// MySQLClientWire (default) or MySQLClientDriver.
	MySQLClient MySQLClient
	// SocketIO chooses blocking sockets or the poller (default auto: see
	// Connector.WantsBlocking).
	SocketIO SocketIO
}

// MySQLClient names the client that runs prepared statements on MySQL.
type MySQLClient int

const (
	// MySQLClientWire is benchpress's protocol client (mywire) where the
	// session allows it (plain TCP, prepared mode), go-sql-driver elsewhere.
	MySQLClientWire MySQLClient = iota
	// MySQLClientDriver sends everything through go-sql-driver/mysql.
	MySQLClientDriver
)
