package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

func TestTPCCShardRules(t *testing.T) {
	conf, err := os.ReadFile(filepath.Join("..", "..", "scripts", "proxy", "conf", "config-tpcc.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// The rules section of the test proxy's configuration, comments dropped:
	// the integration tests prove it works, so yaml output must equal it.
	var want []string
	_, rules, _ := strings.Cut(string(conf), "\nrules:\n")
	for _, l := range strings.Split("rules:\n"+rules, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			want = append(want, l)
		}
	}
	tests := []struct {
		name string
		args []string
		code int
		has  []string
	}{
		{"distsql mod", []string{"--shards", "2"}, 0, []string{
			`CREATE SHARDING TABLE RULE order_line (RESOURCES(ds_0,ds_1), SHARDING_COLUMN=ol_w_id, TYPE(NAME=MOD, PROPERTIES("sharding-count"=2)));`,
			"CREATE SHARDING BINDING TABLE RULES (warehouse,district,customer,history,orders,new_order,order_line,stock);",
			"CREATE SHARDING BROADCAST TABLE RULES (item,benchpress_meta);"}},
		{"yaml equals the test proxy's rules", []string{"--format", "yaml"}, 0, []string{strings.Join(want, "\n")}},
		{"hotdb crc32 bmsql", []string{"--shards", "12", "--shard-placement", "crc32", "--format", "hotdb", "--names", "bmsql"}, 0, []string{
			"| bmsql_oorder | horizontal sharding | O_W_ID | AUTO_CRC32 | DN01~DN12 |", "| bmsql_item | global | - | - | DN01~DN12 |"}},
		{"crc32 has no ShardingSphere algorithm", []string{"--shard-placement", "crc32"}, ExitUsage, []string{"no crc32 sharding algorithm"}},
		{"one shard", []string{"--shards", "1"}, ExitUsage, []string{"--shards must be 2 or more"}},
		{"bad format", []string{"--format", "xml"}, ExitUsage, []string{`unknown --format "xml"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runCLI(t, nil, append([]string{"tpcc", "shard-rules"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errs)
			}
			for _, h := range tc.has {
				if !strings.Contains(out+errs, h) {
					t.Errorf("output lacks %q:\n%s%s", h, out, errs)
				}
			}
		})
	}
}

// crossShardInDB counts, directly in the database, the committed New-Orders
// with an order line supplied from the other shard and the payments of a
// customer on the other shard (mod-2 placement). The loaded data set has
// none (every loaded line and history row is local).
func crossShardInDB(t *testing.T, conn target.Conn) (orders, payments int64) {
	t.Helper()
	q := func(sql string) int64 {
		rows, err := conn.Query(context.Background(), sql)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var n int64
		if !rows.Next() {
			t.Fatal(rows.Err())
		}
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	return q("SELECT COUNT(*) FROM (SELECT DISTINCT ol_w_id, ol_d_id, ol_o_id FROM order_line WHERE MOD(ol_supply_w_id, 2) <> MOD(ol_w_id, 2)) x"),
		q("SELECT COUNT(*) FROM history WHERE MOD(h_c_w_id, 2) <> MOD(h_w_id, 2)")
}

// TestTPCCShardAwareRuns: 4 warehouses as 2 mod-2 shards. A plain sharded
// run's measured cross-shard New-Orders and Payments equal what the
// database gained; a perfect-sharding run reports 0 cross-shard
// transactions, the database gains none, remote payments still happen
// inside the shard, and the deviation is reported.
func TestTPCCShardAwareRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: server end-to-end runs skipped")
	}
	tg := testdb.For(t, target.MySQL, "cli_shard")
	url := urlOf(tg)
	mustCLI(t, "tpcc", "prepare", "--target", url, "--warehouses", "4", "--threads", "2", "--drop")
	_, conn := testdb.Connect(t, tg, target.Options{ConnectTimeout: 5 * time.Second, StatementMode: target.Text})
	for _, perfect := range []bool{false, true} {
		o0, p0 := crossShardInDB(t, conn)
		js := filepath.Join(t.TempDir(), "r.json")
		args := []string{"tpcc", "run", "--target", url, "--terminals", "8", "--warmup", "0s", "--duration", "4s",
			"--report-interval", "0", "--shards", "2", "--json", js}
		if perfect {
			args = append(args, "--perfect-sharding")
		}
		out, _ := mustCLI(t, args...)
		r := readRun(t, js)
		sh, _ := r.Extra["sharding"].(map[string]any)
		if sh == nil {
			t.Fatalf("perfect=%v: no sharding report in the result", perfect)
		}
		o1, p1 := crossShardInDB(t, conn)
		gotNO, gotPay := int64(sh["cross_shard_new_order"].(float64)), int64(sh["cross_shard_payment"].(float64))
		if gotNO != o1-o0 || gotPay != p1-p0 {
			t.Errorf("perfect=%v: tool counted %d New-Order + %d Payment cross-shard, the database gained %d + %d",
				perfect, gotNO, gotPay, o1-o0, p1-p0)
		}
		if r.Config["shards"] != float64(2) || r.Config["perfect_sharding"] != perfect {
			t.Errorf("config %v", r.Config)
		}
		if !perfect {
			if gotPay == 0 {
				t.Errorf("no cross-shard payment in a plain sharded run (15 %% remote, half of them on the other shard)")
			}
			if strings.Contains(out, "DEVIATION") {
				t.Errorf("a plain sharded run reports a deviation:\n%s", out)
			}
			continue
		}
		if gotNO+gotPay != 0 || sh["cross_shard_txns"].(float64) != 0 {
			t.Errorf("perfect sharding: %v cross-shard transactions", sh["cross_shard_txns"])
		}
		if sh["remote_payment_pct"].(float64) < 5 {
			t.Errorf("perfect sharding: remote payments %v %%, want about 15 inside the shard", sh["remote_payment_pct"])
		}
		if !strings.Contains(out, "DEVIATION: perfect sharding") || !strings.Contains(out, "cross-shard transactions 0") {
			t.Errorf("summary lacks the deviation or the measured count:\n%s", out)
		}
	}
	// Split over two local processes: the merged run keeps the sharding
	// report and the deviation (the merge rebuilt the workload without its
	// layout).
	js := filepath.Join(t.TempDir(), "m.json")
	out, stderr, code := runCLIExe(t, "tpcc", "run", "--target", url, "--terminals", "8", "--warmup", "0s", "--duration", "3s",
		"--report-interval", "0", "--shards", "2", "--perfect-sharding", "--processes", "2", "--json", js)
	if code != 0 {
		t.Fatalf("processes 2: exit %d: %s", code, stderr)
	}
	r := readRun(t, js)
	if sh, _ := r.Extra["sharding"].(map[string]any); sh == nil || r.Merged == nil {
		t.Errorf("merged run: sharding report %v, merged %v", r.Extra["sharding"], r.Merged != nil)
	}
	if !strings.Contains(out, "DEVIATION: perfect sharding") {
		t.Errorf("merged run's summary lacks the deviation:\n%s", out)
	}
}
