// Package randgen holds the seeded random generators shared by the workloads:
// uniform ranges, TPC-C NURand, alphanumeric and numeric strings, and (in
// their own files) the YCSB/sysbench skewed distributions.
//
// A Rand is owned by one goroutine; it never locks.
package randgen

import "math/rand/v2"

// Rand is a fast seeded PCG source with benchmark helpers.
type Rand struct {
	*rand.Rand
}

// New returns a Rand seeded deterministically from (seed, stream): the same
// pair always yields the same sequence.
func New(seed, stream uint64) *Rand {
	return &Rand{rand.New(rand.NewPCG(seed, stream^0x9e3779b97f4a7c15))}
}

// Range returns a uniform integer in the closed range [x, y]
// (reference §"random(x,y)").
func (r *Rand) Range(x, y int) int { return x + r.IntN(y-x+1) }

// NURand is TPC-C clause 2.1.6: (((random(0,A) | random(x,y)) + C) % (y-x+1)) + x.
func (r *Rand) NURand(a, x, y, c int) int {
	return (((r.Range(0, a) | r.Range(x, y)) + c) % (y - x + 1)) + x
}

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// AppendAString appends an a-string of random length in [x, y] over
// [a-zA-Z0-9] (TPC-C 4.3.2.2) and returns the extended buffer.
func (r *Rand) AppendAString(b []byte, x, y int) []byte {
	n := r.Range(x, y)
	return r.appendFrom(b, n, alnum)
}

// AppendNString appends a numeric string of random length in [x, y].
func (r *Rand) AppendNString(b []byte, x, y int) []byte {
	n := r.Range(x, y)
	return r.appendFrom(b, n, "0123456789")
}

// appendFrom appends n characters drawn uniformly from set (at most 256
// characters), using 64 random bits for up to eight characters: a byte at
// or above the largest multiple of |set| is drawn again (a plain byte % |set|
// would favour the first 256 % |set| characters: 'a'..'h' a quarter more
// often than the rest for the 62 alphanumerics).
func (r *Rand) appendFrom(b []byte, n int, set string) []byte {
	m := uint64(len(set))
	limit := 256 - 256%m
	var bits uint64
	left := 0
	for i := 0; i < n; {
		if left == 0 {
			bits = r.Uint64()
			left = 8
		}
		v := bits & 0xff
		bits >>= 8
		left--
		if v >= limit {
			continue
		}
		b = append(b, set[v%m])
		i++
	}
	return b
}
