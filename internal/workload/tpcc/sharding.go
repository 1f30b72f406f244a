package tpcc

import (
	"errors"
	"fmt"
	"hash/crc32"
	"sort"
	"strconv"
	"strings"
)

// Placement names how warehouses map to shards.
type Placement string

const (
	// PlaceMod puts warehouse w on shard w mod N: ShardingSphere's MOD and
	// HotDB's AUTO_MOD on W_ID (seed 000, 003).
	PlaceMod Placement = "mod"
	// PlaceCRC32 puts warehouse w on shard crc32(decimal w) mod N: HotDB's
	// AUTO_CRC32 on W_ID (seed 000), the CRC-32/IEEE of the value's text.
	PlaceCRC32 Placement = "crc32"
	// PlaceMap uses an explicit warehouse-to-shard map.
	PlaceMap Placement = "map"
)

// Sharding describes how the warehouses are spread over the shards of a
// sharded deployment (a proxy sharding every table but ITEM by W_ID). With
// Shards < 2 it is off and the run is the plain TPC-C profile.
type Sharding struct {
	Shards    int
	Placement Placement
	// Map is warehouse -> shard (0-based) for PlaceMap; warehouses it does
	// not name are an error.
	Map map[int]int
	// Perfect keeps remote order lines (clause 2.4.1.5) and remote
	// payments (clause 2.5.1.2) inside the terminal's shard: seed 003's
	// "perfect sharding". A deviation from the specification, reported with
	// the measured remote shares and cross-shard transactions.
	Perfect bool
}

// Enabled reports whether the run is shard-aware.
func (s Sharding) Enabled() bool { return s.Shards > 1 }

// ShardOf returns the 0-based shard of warehouse w.
func (s Sharding) ShardOf(w int) int {
	switch s.Placement {
	case PlaceCRC32:
		return int(crc32.ChecksumIEEE([]byte(strconv.Itoa(w))) % uint32(s.Shards))
	case PlaceMap:
		return s.Map[w]
	}
	return w % s.Shards
}

// ParsePlacement checks a --shard-placement value: mod, crc32, or an
// explicit map "W[-W]:SHARD,..." (e.g. "1-50:0,51-100:1"; shards 0-based).
// It returns the placement and the map of PlaceMap.
func ParsePlacement(s string) (Placement, map[int]int, error) {
	switch Placement(strings.ToLower(s)) {
	case "", PlaceMod:
		return PlaceMod, nil, nil
	case PlaceCRC32:
		return PlaceCRC32, nil, nil
	}
	m := map[int]int{}
	for _, part := range strings.Split(s, ",") {
		ws, sh, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			return "", nil, fmt.Errorf("--shard-placement %q: want mod, crc32 or a map W[-W]:SHARD,... (got %q)", s, part)
		}
		shard, err := strconv.Atoi(sh)
		if err != nil || shard < 0 {
			return "", nil, fmt.Errorf("--shard-placement %q: bad shard %q", s, sh)
		}
		lo, hi, isRange := strings.Cut(ws, "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 1 || b < a {
			return "", nil, fmt.Errorf("--shard-placement %q: bad warehouse range %q", s, ws)
		}
		for w := a; w <= b; w++ {
			m[w] = shard
		}
	}
	return PlaceMap, m, nil
}

// Validate returns every problem of s for a run over warehouses 1..w.
func (s Sharding) Validate(w int) []error {
	var errs []error
	if s.Shards < 0 {
		errs = append(errs, fmt.Errorf("--shards must not be negative (got %d)", s.Shards))
	}
	if s.Perfect && s.Shards < 2 {
		errs = append(errs, errors.New("--perfect-sharding needs --shards of 2 or more"))
	}
	if s.Placement == PlaceMap && s.Shards > 1 {
		var missing []string
		for i := 1; i <= w; i++ {
			sh, ok := s.Map[i]
			if !ok {
				missing = append(missing, strconv.Itoa(i))
			} else if sh >= s.Shards {
				errs = append(errs, fmt.Errorf("--shard-placement puts warehouse %d on shard %d, but --shards is %d (shards are 0-based)", i, sh, s.Shards))
			}
		}
		if len(missing) > 0 {
			errs = append(errs, fmt.Errorf("--shard-placement names no shard for warehouse(s) %s", strings.Join(missing, ",")))
		}
	}
	return errs
}

// String is the placement as given on the command line.
func (s Sharding) String() string {
	if s.Placement != PlaceMap {
		return string(s.Placement)
	}
	ws := make([]int, 0, len(s.Map))
	for w := range s.Map {
		ws = append(ws, w)
	}
	sort.Ints(ws)
	var parts []string
	for i := 0; i < len(ws); {
		j := i
		for j+1 < len(ws) && ws[j+1] == ws[j]+1 && s.Map[ws[j+1]] == s.Map[ws[i]] {
			j++
		}
		if i == j {
			parts = append(parts, fmt.Sprintf("%d:%d", ws[i], s.Map[ws[i]]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d:%d", ws[i], ws[j], s.Map[ws[i]]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// shardLayout is the precomputed placement of warehouses 1..w.
type shardLayout struct {
	of    []int   // of[w] = shard of warehouse w (index 0 unused)
	peers [][]int // peers[shard] = the warehouses on that shard, ascending
}

func newShardLayout(s Sharding, w int) shardLayout {
	l := shardLayout{of: make([]int, w+1), peers: make([][]int, s.Shards)}
	for i := 1; i <= w; i++ {
		sh := s.ShardOf(i)
		l.of[i] = sh
		l.peers[sh] = append(l.peers[sh], i)
	}
	return l
}
