// Package randgen holds the seeded random generators shared by the workloads:
// uniform ranges, TPC-C NURand, alphanumeric and numeric strings, and (in
// their own files) the YCSB/sysbench skewed distributions.
//
// A Rand is owned by one goroutine; it never locks.
package randgen

import (
	"math/rand/v2"
	"slices"
)

// Rand is a fast seeded PCG source with benchmark helpers.
type Rand struct {
	*rand.Rand
	// pcg is the Rand's own source: the string helpers draw from it
	// directly (the same sequence as Uint64, without the interface call
	// per 64 bits).
	pcg *rand.PCG
}

// New returns a Rand seeded deterministically from (seed, stream): the same
// pair always yields the same sequence.
func New(seed, stream uint64) *Rand {
	p := rand.NewPCG(seed, stream^0x9e3779b97f4a7c15)
	return &Rand{rand.New(p), p}
}

// Range returns a uniform integer in the closed range [x, y]
// (reference §"random(x,y)").
func (r *Rand) Range(x, y int) int { return x + r.IntN(y-x+1) }

// NURand is TPC-C clause 2.1.6: (((random(0,A) | random(x,y)) + C) % (y-x+1)) + x.
func (r *Rand) NURand(a, x, y, c int) int {
	return (((r.Range(0, a) | r.Range(x, y)) + c) % (y - x + 1)) + x
}

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// byteTable maps a random byte to a character of a set drawn uniformly, or
// to 0 (draw again) for the 256 % |set| bytes above the largest multiple of
// |set|: a plain byte % |set| favoured the first 256 % |set| characters
// ('a'..'h' a quarter more often than the other alphanumerics). A table
// costs one load per character and no division.
type byteTable [256]byte

func tableOf(set string) *byteTable {
	var t byteTable
	m := len(set)
	for v := 0; v < 256-256%m; v++ {
		t[v] = set[v%m]
	}
	return &t
}

// The character tables are read-only after package initialisation.
var (
	alnumTable  = tableOf(alnum)
	digitTable  = tableOf("0123456789")
	letterTable = tableOf("abcdefghijklmnopqrstuvwxyz")
)

// AppendAString appends an a-string of random length in [x, y] over
// [a-zA-Z0-9] (TPC-C 4.3.2.2) and returns the extended buffer.
func (r *Rand) AppendAString(b []byte, x, y int) []byte {
	n := r.Range(x, y)
	return r.appendFrom(b, n, alnumTable)
}

// AppendNString appends a numeric string of random length in [x, y].
func (r *Rand) AppendNString(b []byte, x, y int) []byte {
	n := r.Range(x, y)
	return r.appendFrom(b, n, digitTable)
}

// appendFrom appends n characters drawn uniformly through t, using 64
// random bits for up to eight characters.
func (r *Rand) appendFrom(b []byte, n int, t *byteTable) []byte {
	start := len(b)
	b = slices.Grow(b, n)[:start+n]
	out := b[start:]
	var bits uint64
	left := 0
	for i := 0; i < len(out); {
		if left == 0 {
			bits = r.pcg.Uint64()
			left = 8
		}
		c := t[bits&0xff]
		bits >>= 8
		left--
		if c != 0 {
			out[i] = c
			i++
		}
	}
	return b
}
