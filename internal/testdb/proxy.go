package testdb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"benchpress/internal/target"
)

// EnvProxy is the URL of the ShardingSphere-Proxy that scripts/proxy-setup.sh
// starts (any database name; the logical databases are fixed by the
// script's configuration).
const EnvProxy = "BP_TEST_PROXY"

// DefaultProxy matches scripts/proxy-setup.sh.
const DefaultProxy = "mysql://bench:bench@127.0.0.1:13307/bp_sharded_tpcc"

// Sharded is one logical database of the test proxy: the target through
// the proxy and the two backend databases (on the MariaDB of BP_TEST_MYSQL)
// that hold its shards, in shard order.
type Sharded struct {
	Proxy  *target.Target
	Shards [2]*target.Target
}

// The logical databases of scripts/proxy/conf: TPC-C sharded by warehouse
// (MOD 2 on the *_w_id columns, actual tables <table>_0 on shard 0 and
// <table>_1 on shard 1, item and benchpress_meta broadcast), sysbench
// sbtest1..8 and YCSB usertable sharded over two databases under their own
// names.
const (
	ShardedTPCC     = "tpcc"
	ShardedSysbench = "sbtest"
	ShardedYCSB     = "ycsb"
)

// Proxy returns the logical database name of the test proxy (ShardedTPCC,
// ...). It skips the test when the proxy is not reachable, or fails it when
// BP_REQUIRE_DBS=1 (CI runs scripts/proxy-setup.sh). The shard targets use
// the MariaDB server of BP_TEST_MYSQL, which must be reachable.
//
// The proxy's databases are shared by every checkout on the machine (the
// proxy has one configuration): tests using them must not run in parallel
// with each other across packages on the same logical database, so each
// workload package uses its own.
func Proxy(t testing.TB, name string) *Sharded {
	t.Helper()
	px := ProxyDB(t, "bp_sharded_"+name)
	srv, err := serverAt(target.MySQL, "", "")
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	if srv.skip != "" {
		t.Fatalf("testdb: the proxy is up but its MariaDB is not: %s", srv.skip)
	}
	out := &Sharded{Proxy: px}
	for i := range out.Shards {
		sh := *srv.admin
		sh.Database = fmt.Sprintf("bp_ss_%s_%d", name, i)
		out.Shards[i] = &sh
	}
	return out
}

// ProxyWire is the test proxy's unsharded logical database for the MySQL
// protocol client's tests (one storage unit, MariaDB's bp_ss_wire).
const ProxyWire = "bp_proxy_wire"

// ProxyDB returns the target of logical database db on the test proxy. It
// skips the test when the proxy is not reachable, or fails it when
// BP_REQUIRE_DBS=1.
func ProxyDB(t testing.TB, db string) *target.Target {
	t.Helper()
	raw := os.Getenv(EnvProxy)
	if raw == "" {
		raw = DefaultProxy
	}
	base, err := target.Parse(raw)
	if err != nil {
		t.Fatalf("testdb: %s: %v", EnvProxy, err)
	}
	px := *base
	px.Database = db
	if err := probeProxy(&px); err != nil {
		msg := fmt.Sprintf("ShardingSphere-Proxy not reachable at %s (run scripts/proxy-setup.sh): %v", px.Endpoints[0], err)
		if required() {
			t.Fatalf("testdb: %s (%s=1)", msg, EnvRequire)
		}
		t.Skip(msg)
	}
	return &px
}

// probeProxy connects once and checks that the server is a ShardingSphere
// proxy serving the logical database.
func probeProxy(tg *target.Target) error {
	c, err := target.NewConnector(tg, target.Options{ConnectTimeout: 5 * time.Second, StatementMode: target.Text})
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := c.Connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if target.ProxyName(conn.ServerVersion()) == "" {
		return errors.New("the server on that port is not a proxy: " + conn.ServerVersion())
	}
	return nil
}

// URL is the URL of a MySQL or PostgreSQL target with its password (for
// CLI tests).
func URL(tg *target.Target) string {
	scheme := "mysql://"
	if tg.Kind == target.Postgres {
		scheme = "postgres://"
	}
	return scheme + tg.User + ":" + tg.Password + "@" + strings.Join(tg.Endpoints, ",") + "/" + tg.Database
}
