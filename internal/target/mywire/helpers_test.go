package mywire

import (
	"encoding/binary"
	"math"
)

// Byte builders shared by the unit and protocol tests.

func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
func i64(v int64) []byte   { return le64(uint64(v)) }
func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le16(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
func f64(v float64) []byte { return le64(math.Float64bits(v)) }
func f32(v float32) []byte { return le32(math.Float32bits(v)) }

// lstr is a length-encoded string.
func lstr(s string) []byte { return append(appendLenEnc(nil, uint64(len(s))), s...) }

// cat concatenates byte slices into a new slice.
func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// repeatPattern returns n bytes of a non-repeating-looking pattern, so that
// misplaced or shifted bytes are detected.
func repeatPattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + (i*7+i/251)%26)
	}
	return b
}
