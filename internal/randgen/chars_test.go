package randgen

import (
	"strings"
	"testing"
)

// Generated characters are uniform over their set: a chi-square test over
// 10^6 characters (a byte % |set| draw favours the first 256 % |set|
// characters by up to a quarter and fails it by a wide margin).
func TestCharactersUniform(t *testing.T) {
	const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	cases := []struct {
		name string
		set  string
		gen  func(r *Rand, b []byte) []byte
	}{
		{"a-string", alnum, func(r *Rand, b []byte) []byte { return r.AppendAString(b, 100, 100) }},
		{"n-string", "0123456789", func(r *Rand, b []byte) []byte { return r.AppendNString(b, 100, 100) }},
		{"sysbench #", "0123456789", func(r *Rand, b []byte) []byte { return r.AppendSBString(b, strings.Repeat("#", 100)) }},
		{"sysbench @", "abcdefghijklmnopqrstuvwxyz", func(r *Rand, b []byte) []byte { return r.AppendSBString(b, strings.Repeat("@", 100)) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := New(7, 1)
			counts := map[byte]int{}
			n := 0
			var b []byte
			for n < 1_000_000 {
				b = tc.gen(r, b[:0])
				for _, c := range b {
					counts[c]++
				}
				n += len(b)
			}
			if len(counts) != len(tc.set) {
				t.Fatalf("%d distinct characters, want %d", len(counts), len(tc.set))
			}
			exp := float64(n) / float64(len(tc.set))
			var chi float64
			for i := 0; i < len(tc.set); i++ {
				d := float64(counts[tc.set[i]]) - exp
				chi += d * d / exp
			}
			// The 0.001 critical value is below 2*df+20 for df <= 61.
			if df := float64(len(tc.set) - 1); chi > 2*df+20 {
				t.Fatalf("chi-square %.1f over %d characters (df %.0f): not uniform", chi, n, df)
			}
		})
	}
}

// Row generation's strings: short (S_DIST_xx: 24), long (C_DATA: 300-500)
// and numeric (zip: 4).
func BenchmarkAppendAString24(b *testing.B) {
	r, buf := New(1, 1), make([]byte, 0, 512)
	for i := 0; i < b.N; i++ {
		buf = r.AppendAString(buf[:0], 24, 24)
	}
}

func BenchmarkAppendAString300to500(b *testing.B) {
	r, buf := New(1, 1), make([]byte, 0, 512)
	for i := 0; i < b.N; i++ {
		buf = r.AppendAString(buf[:0], 300, 500)
	}
}

func BenchmarkAppendNString4(b *testing.B) {
	r, buf := New(1, 1), make([]byte, 0, 512)
	for i := 0; i < b.N; i++ {
		buf = r.AppendNString(buf[:0], 4, 4)
	}
}
