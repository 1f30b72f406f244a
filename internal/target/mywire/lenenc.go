package mywire

import "encoding/binary"

// lenEnc decodes a length-encoded integer; k is the number of bytes used, 0
// when p is too short. The NULL marker 0xfb decodes as 0 with k = 1.
func lenEnc(p []byte) (v uint64, k int) {
	if len(p) == 0 {
		return 0, 0
	}
	switch b := p[0]; {
	case b < 0xfb:
		return uint64(b), 1
	case b == 0xfb:
		return 0, 1
	case b == 0xfc:
		if len(p) < 3 {
			return 0, 0
		}
		return uint64(binary.LittleEndian.Uint16(p[1:])), 3
	case b == 0xfd:
		if len(p) < 4 {
			return 0, 0
		}
		return uint64(p[1]) | uint64(p[2])<<8 | uint64(p[3])<<16, 4
	case b == 0xfe:
		if len(p) < 9 {
			return 0, 0
		}
		return binary.LittleEndian.Uint64(p[1:]), 9
	}
	return 0, 0
}

// appendLenEnc appends v as a length-encoded integer.
func appendLenEnc(b []byte, v uint64) []byte {
	switch {
	case v < 0xfb:
		return append(b, byte(v))
	case v <= 0xffff:
		return append(b, 0xfc, byte(v), byte(v>>8))
	case v <= 0xffffff:
		return append(b, 0xfd, byte(v), byte(v>>8), byte(v>>16))
	}
	return binary.LittleEndian.AppendUint64(append(b, 0xfe), v)
}
