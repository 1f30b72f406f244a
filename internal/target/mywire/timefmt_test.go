package mywire

import "testing"

// binDate is a binary DATE/DATETIME value of n bytes (0, 4, 7 or 11).
func binDate(n int, y uint16, mo, d, h, mi, s byte, us uint32) []byte {
	full := cat(le16(y), []byte{mo, d, h, mi, s}, le32(us))
	return full[:n]
}

// binTime is a binary TIME value of n bytes (0, 8 or 12).
func binTime(n int, neg bool, days uint32, h, mi, s byte, us uint32) []byte {
	sign := byte(0)
	if neg {
		sign = 1
	}
	full := cat([]byte{sign}, le32(days), []byte{h, mi, s}, le32(us))
	return full[:n]
}

// TestAppendBinaryDateTime checks the text rendering of binary DATE,
// DATETIME and TIMESTAMP values of every length (0, 4, 7, 11 bytes): the
// date alone for DATE, else the time with exactly the column's declared
// fractional digits (none for 0 and for 0x1f, "not specified").
func TestAppendBinaryDateTime(t *testing.T) {
	date := &column{typ: typeDate}
	newDate := &column{typ: typeNewDate}
	dt := func(dec byte) *column { return &column{typ: typeDateTime, decimals: dec} }
	ts := func(dec byte) *column { return &column{typ: typeTimestamp, decimals: dec} }
	tests := []struct {
		name string
		p    []byte
		col  *column
		want string
	}{
		{"DATE zero (0 bytes)", nil, date, "0000-00-00"},
		{"DATE", binDate(4, 2024, 2, 3, 0, 0, 0, 0), date, "2024-02-03"},
		{"NEWDATE", binDate(4, 2024, 12, 31, 0, 0, 0, 0), newDate, "2024-12-31"},
		{"DATE ignores time bytes", binDate(11, 2024, 2, 3, 4, 5, 6, 7), date, "2024-02-03"},
		{"DATE year 1", binDate(4, 1, 1, 1, 0, 0, 0, 0), date, "0001-01-01"},
		{"DATETIME zero (0 bytes)", nil, dt(0), "0000-00-00 00:00:00"},
		{"DATETIME(6) zero (0 bytes)", nil, dt(6), "0000-00-00 00:00:00.000000"},
		{"DATETIME midnight (4 bytes)", binDate(4, 2024, 2, 3, 0, 0, 0, 0), dt(0), "2024-02-03 00:00:00"},
		{"DATETIME(3) midnight (4 bytes)", binDate(4, 2024, 2, 3, 0, 0, 0, 0), dt(3), "2024-02-03 00:00:00.000"},
		{"DATETIME (7 bytes)", binDate(7, 2024, 2, 3, 4, 5, 6, 0), dt(0), "2024-02-03 04:05:06"},
		{"DATETIME(6) (7 bytes)", binDate(7, 2024, 2, 3, 4, 5, 6, 0), dt(6), "2024-02-03 04:05:06.000000"},
		{"DATETIME(6) (11 bytes)", binDate(11, 2024, 2, 3, 23, 59, 59, 123456), dt(6), "2024-02-03 23:59:59.123456"},
		{"DATETIME(6) 5 us", binDate(11, 9999, 12, 31, 23, 59, 59, 5), dt(6), "9999-12-31 23:59:59.000005"},
		{"DATETIME(3) (11 bytes)", binDate(11, 2024, 2, 3, 4, 5, 6, 123456), dt(3), "2024-02-03 04:05:06.123"},
		{"DATETIME(1)", binDate(11, 2024, 2, 3, 4, 5, 6, 987654), dt(1), "2024-02-03 04:05:06.9"},
		{"DATETIME decimals 0 drops us", binDate(11, 2024, 2, 3, 4, 5, 6, 123456), dt(0), "2024-02-03 04:05:06"},
		{"DATETIME decimals 0x1f drops us", binDate(11, 2024, 2, 3, 4, 5, 6, 123456), dt(0x1f), "2024-02-03 04:05:06"},
		{"TIMESTAMP", binDate(7, 1999, 1, 2, 13, 14, 15, 0), ts(0), "1999-01-02 13:14:15"},
		{"TIMESTAMP(6)", binDate(11, 1999, 1, 2, 13, 14, 15, 100), ts(6), "1999-01-02 13:14:15.000100"},
	}
	for _, tt := range tests {
		got := appendBinaryDateTime([]byte("|"), tt.p, tt.col)
		if string(got) != "|"+tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, "|"+tt.want)
		}
	}
}

// TestAppendBinaryTime checks the text rendering of binary TIME values of
// every length (0, 8, 12 bytes): sign, hours including days (two digits at
// least, three and more from 100 h), and the column's fractional digits.
func TestAppendBinaryTime(t *testing.T) {
	tm := func(dec byte) *column { return &column{typ: typeTime, decimals: dec} }
	tests := []struct {
		name string
		p    []byte
		col  *column
		want string
	}{
		{"zero (0 bytes)", nil, tm(0), "00:00:00"},
		{"zero (0 bytes), TIME(3)", nil, tm(3), "00:00:00.000"},
		{"8 bytes", binTime(8, false, 0, 12, 34, 56, 0), tm(0), "12:34:56"},
		{"one-digit hour", binTime(8, false, 0, 9, 8, 7, 0), tm(0), "09:08:07"},
		{"negative", binTime(8, true, 0, 12, 34, 56, 0), tm(0), "-12:34:56"},
		{"days", binTime(8, false, 1, 2, 0, 0, 0), tm(0), "26:00:00"},
		{"99 hours", binTime(8, false, 4, 3, 0, 0, 0), tm(0), "99:00:00"},
		{"100 hours", binTime(8, false, 4, 4, 0, 0, 0), tm(0), "100:00:00"},
		{"max", binTime(8, false, 34, 22, 59, 59, 0), tm(0), "838:59:59"},
		{"min", binTime(8, true, 34, 22, 59, 59, 0), tm(0), "-838:59:59"},
		{"8 bytes, TIME(6)", binTime(8, false, 0, 1, 2, 3, 0), tm(6), "01:02:03.000000"},
		{"12 bytes, TIME(3)", binTime(12, false, 5, 3, 45, 6, 789000), tm(3), "123:45:06.789"},
		{"12 bytes, TIME(6)", binTime(12, false, 0, 0, 0, 0, 789001), tm(6), "00:00:00.789001"},
		{"negative fraction", binTime(12, true, 0, 0, 0, 1, 500000), tm(6), "-00:00:01.500000"},
		{"decimals 0 drops us", binTime(12, false, 0, 1, 2, 3, 456), tm(0), "01:02:03"},
		{"decimals 0x1f drops us", binTime(12, false, 0, 1, 2, 3, 456), tm(0x1f), "01:02:03"},
	}
	for _, tt := range tests {
		got := appendBinaryTime([]byte("|"), tt.p, tt.col)
		if string(got) != "|"+tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, "|"+tt.want)
		}
	}
}

// TestFracDigits checks which declared decimals count: 1-6 as is, 0 and
// anything else (0x1f, 39) as none.
func TestFracDigits(t *testing.T) {
	for dec, want := range map[byte]int{0: 0, 1: 1, 3: 3, 6: 6, 7: 0, 0x1f: 0, 39: 0} {
		if got := fracDigits(&column{decimals: dec}); got != want {
			t.Errorf("fracDigits(%d) = %d, want %d", dec, got, want)
		}
	}
}
