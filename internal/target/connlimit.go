package target

import (
	"context"
	"fmt"
	"strings"
)

// ConnLimit is how many client sessions a server admits, and how many are
// open, as one of its sessions reads them before a run. It lets a run say
// before it connects that its terminals will not fit, with the server's
// own figures, instead of after hundreds of sessions were refused.
//
// MySQL and MariaDB: max_connections, Threads_connected, and the user's
// own cap max_user_connections (the account's MAX_USER_CONNECTIONS when
// set) with the user's sessions in information_schema.PROCESSLIST.
// PostgreSQL: max_connections less the slots kept for superusers
// (superuser_reserved_connections, and reserved_connections from version
// 16) when the user is not one, the client backends in pg_stat_activity,
// and the role's CONNECTION LIMIT (pg_roles.rolconnlimit) with its
// sessions.
type ConnLimit struct {
	Server      int64  // sessions the server admits for this user in all
	ServerDesc  string // how Server is derived: "max_connections 100 less 3 reserved for superusers"
	ServerInUse int64  // client sessions open, the reading one included
	User        int64  // the user's own cap; 0 when it has none
	UserDesc    string // "max_user_connections 50", "the role's CONNECTION LIMIT 50"
	UserInUse   int64  // this user's sessions open, the reading one included
}

// Shortfall describes why need more sessions will not fit beside the ones
// open when the limit was read (the reading session not counted: it is
// closed before the run), or returns "" when they fit.
func (l ConnLimit) Shortfall(need int64) string {
	var short []string
	if free := l.Server - (l.ServerInUse - 1); l.Server > 0 && need > free {
		short = append(short, fmt.Sprintf("the server admits %d (%s) and %d other session(s) are open", l.Server, l.ServerDesc, l.ServerInUse-1))
	}
	if free := l.User - (l.UserInUse - 1); l.User > 0 && need > free {
		short = append(short, fmt.Sprintf("the user may open %d (%s) and has %d other session(s) open", l.User, l.UserDesc, l.UserInUse-1))
	}
	return strings.Join(short, "; ")
}

// ShortfallOfAll describes why need sessions exceed the limits themselves,
// whatever is open (a partitioned run's other partitions may hold some of
// the open sessions), or returns "" when they fit.
func (l ConnLimit) ShortfallOfAll(need int64) string {
	var short []string
	if l.Server > 0 && need > l.Server {
		short = append(short, fmt.Sprintf("the server admits %d in all (%s)", l.Server, l.ServerDesc))
	}
	if l.User > 0 && need > l.User {
		short = append(short, fmt.Sprintf("the user may open %d in all (%s)", l.User, l.UserDesc))
	}
	return strings.Join(short, "; ")
}

// ReadConnLimit reads the connection limits on a MySQL or PostgreSQL
// session; ok is false on SQLite, through a proxy that ProxyName knows
// (its own limit is not the backend's max_connections it would forward)
// or when the server does not answer the queries (other forks, distributed
// databases without the settings, max_connections 0 for "no limit"):
// there is nothing to check then, which is not an error.
func ReadConnLimit(ctx context.Context, conn Conn) (l ConnLimit, ok bool) {
	if ProxyName(conn.ServerVersion()) != "" {
		return l, false
	}
	switch conn.Kind() {
	case MySQL:
		return readMySQLConnLimit(ctx, conn)
	case Postgres:
		return readPostgresConnLimit(ctx, conn)
	}
	return l, false
}

func readMySQLConnLimit(ctx context.Context, conn Conn) (l ConnLimit, ok bool) {
	if QueryRow(ctx, conn, "SELECT @@max_connections, @@max_user_connections", []any{&l.Server, &l.User}) != nil || l.Server <= 0 {
		return ConnLimit{}, false
	}
	l.ServerDesc = fmt.Sprintf("max_connections %d", l.Server)
	var name string
	if QueryRow(ctx, conn, "SHOW GLOBAL STATUS LIKE 'Threads_connected'", []any{&name, &l.ServerInUse}) != nil {
		l.ServerInUse = 1 // usage unreadable: check against the limit alone
	}
	if l.User > 0 {
		l.UserDesc = fmt.Sprintf("max_user_connections %d", l.User)
		// Without the PROCESS privilege the list holds the user's own
		// sessions only, which are the ones counted here.
		if QueryRow(ctx, conn, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = SUBSTRING_INDEX(CURRENT_USER(), '@', 1)", []any{&l.UserInUse}) != nil {
			l.UserInUse = 1
		}
	}
	return l, true
}

// pgConnLimitSQL reads PostgreSQL's limits in one round trip.
// current_setting(name, true) is NULL where the setting does not exist
// (reserved_connections before version 16). A role that may not see other
// roles' sessions (not superuser, not in pg_read_all_stats) gets NULL as
// their backend_type: a session with a user and no visible type counts as
// a client (a background worker run as a user may count too: the check
// errs on the side of a full server).
const pgConnLimitSQL = `SELECT current_setting('max_connections')::bigint,
	current_setting('superuser_reserved_connections')::bigint
	  + coalesce(current_setting('reserved_connections', true), '0')::bigint,
	r.rolsuper::int, greatest(r.rolconnlimit, 0)::bigint,
	(SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' OR (backend_type IS NULL AND usesysid IS NOT NULL)),
	(SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND usename = current_user)
FROM pg_roles r WHERE r.rolname = current_user`

func readPostgresConnLimit(ctx context.Context, conn Conn) (l ConnLimit, ok bool) {
	var reserved, super int64
	if QueryRow(ctx, conn, pgConnLimitSQL, []any{&l.Server, &reserved, &super, &l.User, &l.ServerInUse, &l.UserInUse}) != nil || l.Server <= 0 {
		return ConnLimit{}, false
	}
	l.ServerDesc = fmt.Sprintf("max_connections %d", l.Server)
	if super == 0 && reserved > 0 {
		l.ServerDesc += fmt.Sprintf(" less %d reserved for superusers", reserved)
		l.Server -= reserved
	}
	if l.User > 0 {
		l.UserDesc = fmt.Sprintf("the role's CONNECTION LIMIT %d", l.User)
	}
	return l, true
}
