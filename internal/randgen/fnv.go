package randgen

import "encoding/binary"

const (
	fnvOffset64 = 0xCBF29CE484222325
	fnvPrime64  = 1099511628211
)

// FNVHash64 is Java YCSB's Utils.fnvhash64 (reference §3.2): FNV-1a over the
// 8 bytes of v, least-significant byte first, then Math.abs as a signed
// 64-bit value (so math.MinInt64 stays negative, exactly as in Java).
// benchpress builds YCSB keys with this function so that keys match the Java
// tool's for the same keynum.
func FNVHash64(v int64) int64 {
	h := uint64(fnvOffset64)
	u := uint64(v)
	for i := 0; i < 8; i++ {
		h ^= u & 0xff
		h *= fnvPrime64
		u >>= 8
	}
	return abs64(int64(h))
}

// GoYCSBHash64 is go-ycsb's util.Hash64: FNV-1a over the big-endian bytes of
// v, then abs. It differs from FNVHash64 for every keynum except 0 and is
// provided only to compare with go-ycsb data sets (reference §3.2 table).
func GoYCSBHash64(v int64) int64 {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(v))
	h := uint64(fnvOffset64)
	for _, c := range b {
		h ^= uint64(c)
		h *= fnvPrime64
	}
	return abs64(int64(h))
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x // -MinInt64 == MinInt64, like Java's Math.abs
	}
	return x
}
