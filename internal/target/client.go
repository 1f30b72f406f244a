package target

import (
	"sync"
	"sync/atomic"
)

// Client library names, as recorded per session in results ("clients").
const (
	ClientMyWire   = "benchpress-mywire"   // MySQL protocol client (internal/target/mywire)
	ClientMySQLDrv = "go-sql-driver/mysql" // text mode, TLS/compressed sessions, or --mysql-client driver
	ClientPgx      = "pgx"
	ClientSQLite   = "modernc.org/sqlite"
)

// clientOf names the library that runs conn's statements.
func clientOf(conn Conn) string {
	switch c := conn.(type) {
	case *mysqlConn:
		if c.w != nil {
			return ClientMyWire
		}
		return ClientMySQLDrv
	case *pgConn:
		return ClientPgx
	case *sqlConn:
		if c.kind == SQLite {
			return ClientSQLite
		}
		return ClientMySQLDrv
	}
	return "unknown"
}

// clientCounts counts sessions per client library. Connect is not a hot
// path; the map holds at most a few names.
type clientCounts struct{ m sync.Map } // name -> *atomic.Int64

func (cc *clientCounts) add(name string) {
	v, ok := cc.m.Load(name)
	if !ok {
		v, _ = cc.m.LoadOrStore(name, new(atomic.Int64))
	}
	v.(*atomic.Int64).Add(1)
}

func (cc *clientCounts) snapshot() map[string]int64 {
	out := map[string]int64{}
	cc.m.Range(func(k, v any) bool {
		out[k.(string)] = v.(*atomic.Int64).Load()
		return true
	})
	return out
}

// ClientCounts reports how many sessions each client library ran since the
// Connector was made: on MySQL, sessions on benchpress's protocol client
// and sessions left to go-sql-driver (text mode, TLS or compression).
func (c *Connector) ClientCounts() map[string]int64 { return c.clients.snapshot() }
