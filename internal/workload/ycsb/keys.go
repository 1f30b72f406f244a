package ycsb

import (
	"strconv"

	"benchpress/internal/randgen"
)

// appendKey appends CoreWorkload.buildKeyName(keynum) (§3.2): "user" + the
// keynum, hashed with Java YCSB's fnvhash64 unless insertorder=ordered,
// left-padded with '0' to zeropadding digits.
func appendKey(b []byte, keynum int64, ordered bool, zeroPadding int) []byte {
	if !ordered {
		keynum = randgen.FNVHash64(keynum)
	}
	var d [24]byte
	digits := strconv.AppendInt(d[:0], keynum, 10)
	b = append(b, "user"...)
	for i := len(digits); i < zeroPadding; i++ {
		b = append(b, '0')
	}
	return append(b, digits...)
}

// KeyName returns the key of keynum under c's insertorder and zeropadding.
func (c *Config) KeyName(keynum int64) string {
	return string(appendKey(nil, keynum, c.Ordered, c.ZeroPadding))
}
