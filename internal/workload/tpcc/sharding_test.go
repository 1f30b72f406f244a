package tpcc

import (
	"errors"
	"hash/crc32"
	"strconv"
	"strings"
	"testing"

	"benchpress/internal/randgen"
)

func TestParseTxnShapeAndResolve(t *testing.T) {
	const ss = "5.5.5-10.11.19-MariaDB-0+deb12u1-ShardingSphere-Proxy 5.1.0"
	tests := []struct {
		in, version string
		want        TxnShape
		bad         bool
	}{
		{"", "10.11.19-MariaDB", ShapeBatched, false},
		{"auto", ss, ShapePerLine, false},
		{"batched", ss, ShapeBatched, false},
		{"per-line", "10.11.19-MariaDB", ShapePerLine, false},
		{"rows", "", "", true},
	}
	for _, tc := range tests {
		s, err := ParseTxnShape(tc.in)
		if (err != nil) != tc.bad {
			t.Fatalf("%q: err %v", tc.in, err)
		}
		if err == nil && s.Resolve(tc.version) != tc.want {
			t.Errorf("%q on %q: %q, want %q", tc.in, tc.version, s.Resolve(tc.version), tc.want)
		}
	}
}

func TestShardPlacement(t *testing.T) {
	tests := []struct {
		placement string
		shards    int
		w         int
		want      []int // shard of warehouses 1..w
		errs      string
	}{
		{"mod", 2, 4, []int{1, 0, 1, 0}, ""},
		{"MOD", 3, 4, []int{1, 2, 0, 1}, ""},
		{"1-2:0,3:1,4:1", 2, 4, []int{0, 0, 1, 1}, ""},
		{"1-2:0,3:5", 2, 3, nil, "puts warehouse 3 on shard 5"},
		{"1-2:0", 2, 3, nil, "names no shard for warehouse(s) 3"},
	}
	for _, tc := range tests {
		pl, m, err := ParsePlacement(tc.placement)
		if err != nil {
			t.Fatalf("%q: %v", tc.placement, err)
		}
		s := Sharding{Shards: tc.shards, Placement: pl, Map: m}
		if errs := errors.Join(s.Validate(tc.w)...); tc.errs != "" {
			if errs == nil || !strings.Contains(errs.Error(), tc.errs) {
				t.Errorf("%q: errors %v, want %q", tc.placement, errs, tc.errs)
			}
			continue
		} else if errs != nil {
			t.Fatalf("%q: %v", tc.placement, errs)
		}
		for w := 1; w <= tc.w; w++ {
			if got := s.ShardOf(w); got != tc.want[w-1] {
				t.Errorf("%q: warehouse %d on shard %d, want %d", tc.placement, w, got, tc.want[w-1])
			}
		}
	}
	// crc32: the CRC-32/IEEE of the decimal text, as HotDB's AUTO_CRC32.
	s := Sharding{Shards: 12, Placement: PlaceCRC32}
	for _, w := range []int{1, 77, 1000} {
		want := int(crc32.ChecksumIEEE([]byte(strconv.Itoa(w))) % 12)
		if got := s.ShardOf(w); got != want {
			t.Errorf("crc32 warehouse %d: shard %d, want %d", w, got, want)
		}
	}
	if _, _, err := ParsePlacement("1-x:0"); err == nil {
		t.Error("bad range accepted")
	}
	if errs := (Sharding{Shards: 1, Perfect: true}).Validate(2); len(errs) == 0 {
		t.Error("--perfect-sharding with one shard accepted")
	}
	if got := (Sharding{Shards: 2, Placement: PlaceMap, Map: map[int]int{1: 0, 2: 0, 3: 1, 5: 1}}).String(); got != "1-2:0,3:1,5:1" {
		t.Errorf("String = %q", got)
	}
}

// TestPerfectShardingDraws: with perfect sharding every remote supplying
// warehouse and remote customer warehouse a terminal draws lies on its own
// shard, and remote draws still happen; without it, other shards are drawn.
func TestPerfectShardingDraws(t *testing.T) {
	meta := Meta{Warehouses: 6, Scheme: "standard", CLoadLast: 100, CID: 5, COLIID: 7}
	names, _ := NamesFor("standard")
	for _, perfect := range []bool{false, true} {
		w, err := New(Config{Mix: DefaultMix, Names: names, Seed: 3, Sharding: Sharding{Shards: 2, Placement: PlaceMod, Perfect: perfect}}, meta)
		if err != nil {
			t.Fatal(err)
		}
		var remote, cross int
		for id := 0; id < 6; id++ {
			tm := &Terminal{w: w, nw: w.w, r: randgen.New(11, uint64(id))}
			tm.wID, tm.dID = Bind(id, w.w)
			tm.bindShard()
			for i := 0; i < 3000; i++ {
				tm.drawPayment()
				if tm.pa.remote {
					remote++
					if tm.crossShard(tm.pa.cWID) {
						cross++
					}
					if tm.pa.cWID == tm.wID {
						t.Fatal("remote payment at the home warehouse")
					}
				}
			}
		}
		if remote == 0 {
			t.Errorf("perfect=%v: no remote payment", perfect)
		}
		if perfect && cross != 0 || !perfect && cross == 0 {
			t.Errorf("perfect=%v: %d of %d remote payments cross shards", perfect, cross, remote)
		}
	}
}
