package randgen

// TPC-C data-generation helpers (clause 4.3.2, reference §1.5.1).

const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// AppendState appends a *_STATE value: 2 random uppercase letters.
func (r *Rand) AppendState(b []byte) []byte {
	return append(b, upper[r.IntN(26)], upper[r.IntN(26)])
}

// AppendZip appends a *_ZIP value: a 4-digit n-string followed by "11111"
// (clause 4.3.2.7), 9 characters in total.
func (r *Rand) AppendZip(b []byte) []byte {
	b = r.AppendNString(b, 4, 4)
	return append(b, "11111"...)
}

// AppendOriginal appends an a-string[x..y] (x >= 8); when original is true
// the 8 characters "ORIGINAL" overwrite it at a random offset in [0, L-8],
// leaving the length unchanged (clause 4.3.3.1, I_DATA / S_DATA).
func (r *Rand) AppendOriginal(b []byte, x, y int, original bool) []byte {
	start := len(b)
	b = r.AppendAString(b, x, y)
	if original {
		off := start + r.Range(0, len(b)-start-8)
		copy(b[off:], "ORIGINAL")
	}
	return b
}

// Permute fills p with a uniformly random permutation of 1..len(p)
// (Fisher-Yates), e.g. O_C_ID in the initial ORDER population.
func (r *Rand) Permute(p []int) {
	for i := range p {
		p[i] = i + 1
	}
	for i := len(p) - 1; i > 0; i-- {
		j := r.Range(0, i)
		p[i], p[j] = p[j], p[i]
	}
}
