package cli

import (
	"context"
	"time"

	"benchpress/internal/registry"
	"benchpress/internal/target"
)

// settingQueries are the server settings recorded in a sweep's environment,
// per protocol: each is one single-value query; a query the server rejects
// (older versions, other forks) is left out.
var settingQueries = map[target.Kind][][2]string{
	target.MySQL: {
		{"version", "SELECT VERSION()"},
		{"innodb_buffer_pool_size", "SELECT @@innodb_buffer_pool_size"},
		{"isolation", "SELECT @@tx_isolation"},
		{"isolation", "SELECT @@transaction_isolation"},
		{"max_connections", "SELECT @@max_connections"},
		{"innodb_flush_log_at_trx_commit", "SELECT @@innodb_flush_log_at_trx_commit"},
		{"sync_binlog", "SELECT @@sync_binlog"},
	},
	target.Postgres: {
		{"version", "SHOW server_version"},
		{"shared_buffers", "SHOW shared_buffers"},
		{"isolation", "SHOW default_transaction_isolation"},
		{"max_connections", "SHOW max_connections"},
		{"synchronous_commit", "SHOW synchronous_commit"},
		{"fsync", "SHOW fsync"},
	},
	target.SQLite: {
		{"version", "SELECT sqlite_version()"},
		{"journal_mode", "PRAGMA journal_mode"},
		{"synchronous", "PRAGMA synchronous"},
	},
}

// ProbeTarget implements sweep.EnvProber: server version and key settings.
func (s stepRunner) ProbeTarget(ctx context.Context, url string) (map[string]string, error) {
	tf := target.Flags{URL: url, StatementMode: "text", ConnTimeout: 10 * time.Second}
	out := map[string]string{}
	err := registry.WithAdmin(ctx, s.app.env(), &tf, func(conn *target.Connector, admin target.Conn) error {
		for _, q := range settingQueries[conn.Target().Kind] {
			if _, done := out[q[0]]; done {
				continue
			}
			if v, ok := queryString(ctx, admin, q[1]); ok {
				out[q[0]] = v
			}
		}
		return nil
	})
	return out, err
}

// queryString runs a single-value query and returns its value as text.
func queryString(ctx context.Context, c target.Conn, sql string) (string, bool) {
	var v string
	return v, target.QueryRow(ctx, c, sql, []any{&v}) == nil
}
