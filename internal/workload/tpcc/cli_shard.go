package tpcc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"benchpress/internal/console"
	"benchpress/internal/registry"
	"benchpress/internal/results"
	"benchpress/internal/usage"
)

// shardFlags are the sharding options of tpcc run (and sweep cases).
type shardFlags struct {
	shards    int
	placement string
	perfect   bool
}

func (f *shardFlags) register(fs *pflag.FlagSet) {
	fs.IntVar(&f.shards, "shards", 0, "shards the warehouses are spread over (sharding proxy by W_ID); 2+ turns on cross-shard counting")
	fs.StringVar(&f.placement, "shard-placement", "mod", "warehouse placement: mod (w mod N), crc32 (crc32(w) mod N, HotDB AUTO_CRC32) or a map W[-W]:SHARD,... (0-based)")
	fs.BoolVar(&f.perfect, "perfect-sharding", false, "draw remote order lines and remote payments only inside the terminal's shard (seed 003; a deviation from clauses 2.4.1.5/2.5.1.2, reported)")
}

// resolve turns the flags into a Sharding.
func (f *shardFlags) resolve() (Sharding, error) {
	pl, m, err := ParsePlacement(f.placement)
	if err != nil {
		return Sharding{}, &usage.Error{Err: err}
	}
	return Sharding{Shards: f.shards, Placement: pl, Map: m, Perfect: f.perfect}, nil
}

// shardConfig adds the sharding settings to a result config (when on).
func shardConfig(s Sharding, cfg map[string]any) {
	if s.Enabled() {
		cfg["shards"] = s.Shards
		cfg["shard_placement"] = s.String()
		cfg["perfect_sharding"] = s.Perfect
	}
}

// printSummary is the TPC-C summary: the common one, then the sharding
// lines of a shard-aware run.
func printSummary(w io.Writer, r *results.Run) {
	console.Summary(w, r)
	printSharding(w, r)
}

// printSharding writes the layout, the measured cross-shard transactions
// and, with perfect sharding, the deviation from the specification.
func printSharding(w io.Writer, r *results.Run) {
	sr, ok := r.Extra["sharding"].(ShardingReport)
	if !ok {
		return
	}
	fmt.Fprintf(w, "\nsharding: %d shards (%s), warehouses per shard %v; cross-shard transactions %d (%.2f %% of New-Order + Payment; New-Order %d, Payment %d), measured\n",
		sr.Shards, sr.Placement, sr.WarehousesPerShard, sr.CrossShardTxns, sr.CrossShardPct, sr.CrossShardNewOrder, sr.CrossShardPayment)
	if sr.Deviation != "" {
		fmt.Fprintln(w, "DEVIATION: "+sr.Deviation)
	}
}

var shardRulesCommand = registry.Command{
	Use:   "shard-rules",
	Short: "Print sharding rules for TPC-C sharded by warehouse (ShardingSphere DistSQL/YAML, HotDB)",
	Long: `Prints the rules a sharding proxy needs for TPC-C sharded by warehouse, as in
seed reports 000 and 003: every table but ITEM sharded on its *_w_id column,
ITEM and benchpress_meta broadcast (global), the sharded tables bound together.
Apply them, then run tpcc prepare through the proxy.

  distsql  ShardingSphere 5.1 DistSQL (mod placement; auto tables table_i on unit i)
  yaml     ShardingSphere 5.1 config-*.yaml rules (mod placement), as
           scripts/proxy/conf/config-tpcc.yaml uses
  hotdb    HotDB table objects (AUTO_MOD or AUTO_CRC32 over DN01..DNn)`,
	Example: `  benchpress tpcc shard-rules --shards 2 --format distsql
  benchpress tpcc shard-rules --shards 12 --shard-placement crc32 --format hotdb --names bmsql`,
	Args: registry.ArgsNone,
	Bind: func(fs *pflag.FlagSet) registry.Action {
		var (
			f      shardFlags
			names  string
			format string
			prefix string
		)
		fs.IntVar(&f.shards, "shards", 2, "number of shards (storage units / data nodes)")
		fs.StringVar(&f.placement, "shard-placement", "mod", "mod or crc32 (crc32: --format hotdb only)")
		registerNames(fs, &names)
		fs.StringVar(&format, "format", RulesDistSQL, "distsql, yaml or hotdb")
		fs.StringVar(&prefix, "unit-prefix", "ds_", "storage unit name prefix (units PREFIX0..PREFIXn-1; distsql and yaml)")
		return func(_ context.Context, env *registry.Env, _ []string) error {
			n, err := resolveNames(names)
			if err != nil {
				return err
			}
			s, err := f.resolve()
			if err != nil {
				return err
			}
			errs := s.Validate(0)
			out, err := ShardRules(n, s, strings.ToLower(format), prefix)
			if err != nil {
				errs = append(errs, err)
			}
			if err := errors.Join(errs...); err != nil {
				return &usage.Error{Err: err}
			}
			_, err = io.WriteString(env.Out, out)
			return err
		}
	},
}
