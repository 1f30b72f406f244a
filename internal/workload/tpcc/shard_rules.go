package tpcc

import (
	"fmt"
	"strings"
)

// shardColumns are the warehouse columns every table but ITEM is sharded
// by (seed 000: NO_W_ID, O_W_ID, ...), in a fixed order.
var shardColumns = []struct {
	t   tableID
	col string
}{
	{tWarehouse, "w_id"}, {tDistrict, "d_w_id"}, {tCustomer, "c_w_id"}, {tHistory, "h_w_id"},
	{tOrders, "o_w_id"}, {tNewOrder, "no_w_id"}, {tOrderLine, "ol_w_id"}, {tStock, "s_w_id"},
}

// Rule formats of ShardRules.
const (
	RulesDistSQL = "distsql" // ShardingSphere 5.1 DistSQL (auto tables)
	RulesYAML    = "yaml"    // ShardingSphere 5.1 YAML (config-*.yaml rules)
	RulesHotDB   = "hotdb"   // HotDB-style table objects (management platform)
)

// RuleFormats lists the valid --format values.
func RuleFormats() []string { return []string{RulesDistSQL, RulesYAML, RulesHotDB} }

// ShardRules returns the sharding rules of a TPC-C data set under names n
// sharded by warehouse as s describes, in format, for storage units named
// prefix0..prefixN-1: every table but ITEM sharded on its *_w_id column,
// ITEM and the metadata table broadcast (global), the sharded tables bound
// to each other so that joins stay on one shard.
//
// ShardingSphere has MOD but neither CRC32 nor a map algorithm, so distsql
// and yaml need s.Placement mod; hotdb names AUTO_MOD or AUTO_CRC32 (an
// explicit map has no HotDB algorithm either).
func ShardRules(n Names, s Sharding, format, prefix string) (string, error) {
	if s.Shards < 2 {
		return "", fmt.Errorf("--shards must be 2 or more (got %d)", s.Shards)
	}
	var b strings.Builder
	switch format {
	case RulesDistSQL, RulesYAML:
		if s.Placement != PlaceMod {
			return "", fmt.Errorf("ShardingSphere has no %s sharding algorithm: use --shard-placement mod, or --format hotdb", s.Placement)
		}
		if format == RulesDistSQL {
			distSQL(&b, n, s.Shards, prefix)
		} else {
			yamlRules(&b, n, s.Shards, prefix)
		}
	case RulesHotDB:
		if s.Placement == PlaceMap {
			return "", fmt.Errorf("HotDB has no explicit-map algorithm: use --shard-placement mod or crc32")
		}
		hotDB(&b, n, s)
	default:
		return "", fmt.Errorf("unknown --format %q (want %s)", format, strings.Join(RuleFormats(), ", "))
	}
	return b.String(), nil
}

func units(prefix string, k int) []string {
	out := make([]string, k)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

func shardedNames(n Names) []string {
	var out []string
	for _, c := range shardColumns {
		out = append(out, c.t.physical(n))
	}
	return out
}

// distSQL writes ShardingSphere 5.1 DistSQL: auto tables of k shards over
// k storage units (table_i on unit i, MOD k on the warehouse column).
func distSQL(b *strings.Builder, n Names, k int, prefix string) {
	fmt.Fprintf(b, "-- TPC-C sharded by warehouse: MOD %d on the *_w_id columns over %d storage units.\n", k, k)
	b.WriteString("-- ShardingSphere 5.1 DistSQL (5.3+ spells RESOURCES as STORAGE_UNITS); register the units first.\n")
	for _, c := range shardColumns {
		fmt.Fprintf(b, "CREATE SHARDING TABLE RULE %s (RESOURCES(%s), SHARDING_COLUMN=%s, TYPE(NAME=MOD, PROPERTIES(\"sharding-count\"=%d)));\n",
			c.t.physical(n), strings.Join(units(prefix, k), ","), c.col, k)
	}
	fmt.Fprintf(b, "CREATE SHARDING BINDING TABLE RULES (%s);\n", strings.Join(shardedNames(n), ","))
	fmt.Fprintf(b, "CREATE SHARDING BROADCAST TABLE RULES (%s,%s);\n", n.Item, n.Meta)
}

// yamlRules writes the rules section of a ShardingSphere 5.1 config-*.yaml:
// table_i on unit i, MOD k on the warehouse column for both the database
// and the table, the form scripts/proxy/conf/config-tpcc.yaml uses.
func yamlRules(b *strings.Builder, n Names, k int, prefix string) {
	b.WriteString("rules:\n- !SHARDING\n  tables:\n")
	for _, c := range shardColumns {
		t := c.t.physical(n)
		nodes := make([]string, k)
		for i := range nodes {
			nodes[i] = fmt.Sprintf("%s%d.%s_%d", prefix, i, t, i)
		}
		fmt.Fprintf(b, "    %s:\n      actualDataNodes: %s\n", t, strings.Join(nodes, ","))
		for _, level := range []string{"databaseStrategy", "tableStrategy"} {
			fmt.Fprintf(b, "      %s:\n        standard:\n          shardingColumn: %s\n          shardingAlgorithmName: mod%d\n", level, c.col, k)
		}
	}
	fmt.Fprintf(b, "  bindingTables:\n    - %s\n", strings.Join(shardedNames(n), ","))
	fmt.Fprintf(b, "  broadcastTables:\n    - %s\n    - %s\n", n.Item, n.Meta)
	fmt.Fprintf(b, "  shardingAlgorithms:\n    mod%d:\n      type: MOD\n      props:\n        sharding-count: %d\n", k, k)
}

// hotDB writes the table objects to create in HotDB's management platform,
// as seed 000 lists them: horizontally sharded tables on the warehouse
// column with AUTO_MOD or AUTO_CRC32 over data nodes DN01..DNk, ITEM and
// the metadata table global.
func hotDB(b *strings.Builder, n Names, s Sharding) {
	alg := "AUTO_MOD"
	if s.Placement == PlaceCRC32 {
		alg = "AUTO_CRC32"
	}
	dn := fmt.Sprintf("DN01~DN%02d", s.Shards)
	b.WriteString("# HotDB table objects (create them in the management platform before `tpcc prepare`)\n")
	b.WriteString("| table | type | sharding column | algorithm | data nodes |\n|---|---|---|---|---|\n")
	for _, c := range shardColumns {
		fmt.Fprintf(b, "| %s | horizontal sharding | %s | %s | %s |\n", c.t.physical(n), strings.ToUpper(c.col), alg, dn)
	}
	for _, t := range []string{n.Item, n.Meta} {
		fmt.Fprintf(b, "| %s | global | - | - | %s |\n", t, dn)
	}
}
