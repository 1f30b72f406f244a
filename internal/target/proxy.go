package target

import (
	"errors"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

// proxyMarkers are substrings of the version strings that sharding and
// routing proxies report in their handshake (ShardingSphere-Proxy appends
// "-ShardingSphere-Proxy 5.1.0" to its backend's version).
var proxyMarkers = []struct{ marker, name string }{
	{"shardingsphere", "ShardingSphere-Proxy"},
	{"hotdb", "HotDB"},
	{"mycat", "Mycat"},
	{"dble", "DBLE"},
	{"vitess", "Vitess"},
	{"proxysql", "ProxySQL"},
	{"kingshard", "Kingshard"},
	{"gaea", "Gaea"},
	{"maxscale", "MaxScale"},
}

// ProxyName names the proxy that a server version string reveals
// ("ShardingSphere-Proxy", "HotDB", ...), or "" for a plain server or a
// proxy that hides itself.
func ProxyName(serverVersion string) string {
	v := strings.ToLower(serverVersion)
	for _, m := range proxyMarkers {
		if strings.Contains(v, m.marker) {
			return m.name
		}
	}
	return ""
}

// IsServerError reports whether err is an error answer of the MySQL or
// PostgreSQL protocol (the target refused or failed the statement), as
// opposed to a transport, client or context failure.
func IsServerError(err error) bool {
	var me *mysql.MySQLError
	var pe *pgconn.PgError
	return errors.As(err, &me) || errors.As(err, &pe)
}

// RefusedByProxy reports whether err is an error answer of a statement on
// a session connected to a proxy that ProxyName recognises, other than a
// constraint violation or a lost connection: the proxy refused a statement
// shape it cannot route (ShardingSphere 5.1: a multi-row INSERT whose rows
// go to more than one data node). A loader then sends the rows one per
// statement.
func RefusedByProxy(conn Conn, err error) bool {
	if err == nil || ProxyName(conn.ServerVersion()) == "" || !IsServerError(err) {
		return false
	}
	c := Classify(err)
	return c != ClassConstraint && c != ClassLostConnection
}
