package testdb

import (
	"testing"

	"benchpress/internal/target"
)

// The MariaDB at stock settings (scripts/db-setup.sh starts it on port
// 3307): max_prepared_stmt_count 16382, 128M buffer pool, as a user meets
// a fresh server.
const (
	EnvMySQLDefaults     = "BP_TEST_MYSQL_DEFAULTS"
	DefaultMySQLDefaults = "mysql://bench:bench@127.0.0.1:3307/bp_test"
)

// MySQLDefaults returns a target on the stock-settings MariaDB using
// database bp_t_<name>; it skips when that server is unreachable (fails
// with BP_REQUIRE_DBS=1).
func MySQLDefaults(t testing.TB, name string) *target.Target {
	t.Helper()
	tg, skip, err := getFrom(t, target.MySQL, name, EnvMySQLDefaults, DefaultMySQLDefaults)
	return orSkip(t, tg, skip, err)
}
