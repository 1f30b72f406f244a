package ycsb

import "benchpress/internal/randgen"

// appendValue appends n random printable ASCII bytes (' '..'~'), like
// RandomByteIterator's masked random bytes offset by ' ' (§3.1), using every
// 64-bit draw for 8 bytes. The Java generator can also emit 0x7F (DEL);
// benchpress keeps to printable characters so values survive every driver
// and charset unchanged.
func appendValue(b []byte, r *randgen.Rand, n int) []byte {
	var bits uint64
	left := 0
	for i := 0; i < n; i++ {
		if left == 0 {
			bits, left = r.Uint64(), 8
		}
		b = append(b, byte(' '+(bits&0xff)%95))
		bits >>= 8
		left--
	}
	return b
}

// fieldLen draws one field's length (fieldlengthdistribution).
func (w *Workload) fieldLen(r *randgen.Rand) int {
	switch w.cfg.FieldLengthDist {
	case "uniform":
		return w.cfg.MinFieldLength + r.IntN(w.cfg.FieldLength-w.cfg.MinFieldLength+1)
	case "zipfian":
		return int(w.fieldLenZipf.Next(r))
	}
	return w.cfg.FieldLength
}
