package mywire

import (
	"bytes"
	"math"
	"testing"
)

// TestLenEncRoundTrip checks the exact length-encoded integer encoding at
// every width boundary (1, 3, 4 and 9 bytes), that appendLenEnc appends
// after existing bytes, and that lenEnc decodes the value back, consuming
// exactly the encoding and ignoring what follows it.
func TestLenEncRoundTrip(t *testing.T) {
	tests := []struct {
		v    uint64
		want []byte
	}{
		{0, []byte{0x00}},
		{1, []byte{0x01}},
		{250, []byte{0xfa}},
		{251, []byte{0xfc, 0xfb, 0x00}},
		{252, []byte{0xfc, 0xfc, 0x00}},
		{0xffff, []byte{0xfc, 0xff, 0xff}},
		{0x10000, []byte{0xfd, 0x00, 0x00, 0x01}},
		{0xabcdef, []byte{0xfd, 0xef, 0xcd, 0xab}},
		{0xffffff, []byte{0xfd, 0xff, 0xff, 0xff}},
		{0x1000000, []byte{0xfe, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00}},
		{1 << 63, []byte{0xfe, 0, 0, 0, 0, 0, 0, 0, 0x80}},
		{math.MaxUint64, []byte{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
	}
	for _, tt := range tests {
		got := appendLenEnc([]byte("pre"), tt.v)
		if want := append([]byte("pre"), tt.want...); !bytes.Equal(got, want) {
			t.Errorf("appendLenEnc(%#x) = % x, want % x", tt.v, got, want)
			continue
		}
		v, k := lenEnc(append(got[3:], 0xff, 0x01)) // trailing bytes are not part of it
		if v != tt.v || k != len(tt.want) {
			t.Errorf("lenEnc(% x) = %#x, %d; want %#x, %d", tt.want, v, k, tt.v, len(tt.want))
		}
	}
}

// TestLenEncTruncated checks that every proper prefix of a multi-byte
// encoding, and an empty input, decode with k = 0 (not enough bytes).
func TestLenEncTruncated(t *testing.T) {
	for _, enc := range [][]byte{
		appendLenEnc(nil, 251),
		appendLenEnc(nil, 0x10000),
		appendLenEnc(nil, 0x1000000),
	} {
		for n := 0; n < len(enc); n++ {
			if v, k := lenEnc(enc[:n]); v != 0 || k != 0 {
				t.Errorf("lenEnc(% x) = %d, %d; want 0, 0", enc[:n], v, k)
			}
		}
	}
}

// TestLenEncMarkers checks the two single bytes that are not integers: 0xfb
// (NULL in a text row) decodes as 0 using 1 byte, 0xff (an ERR header) is
// not a valid encoding (k = 0).
func TestLenEncMarkers(t *testing.T) {
	tests := []struct {
		in    []byte
		v     uint64
		k     int
		label string
	}{
		{[]byte{0xfb}, 0, 1, "NULL marker"},
		{[]byte{0xfb, 0x05}, 0, 1, "NULL marker, more bytes"},
		{[]byte{0xff, 1, 2, 3, 4, 5, 6, 7, 8}, 0, 0, "0xff"},
		{[]byte{0xfa}, 250, 1, "largest one-byte value"},
	}
	for _, tt := range tests {
		if v, k := lenEnc(tt.in); v != tt.v || k != tt.k {
			t.Errorf("%s: lenEnc(% x) = %d, %d; want %d, %d", tt.label, tt.in, v, k, tt.v, tt.k)
		}
	}
}
