package mywire

import "encoding/binary"

// fracDigits is the number of fractional digits a column declares (0 when
// unspecified, 0x1f).
func fracDigits(col *column) int {
	if col.decimals >= 1 && col.decimals <= 6 {
		return int(col.decimals)
	}
	return 0
}

// appendBinaryDateTime formats a binary DATE/DATETIME/TIMESTAMP value (0, 4,
// 7 or 11 bytes: year(2) month day [hour minute second [microsecond(4)]]) as
// the text the server would send: YYYY-MM-DD for DATE, else
// YYYY-MM-DD hh:mm:ss plus the column's declared fractional digits.
func appendBinaryDateTime(b, p []byte, col *column) []byte {
	var y, mo, d, h, mi, s, us int
	if len(p) >= 4 {
		y, mo, d = int(binary.LittleEndian.Uint16(p)), int(p[2]), int(p[3])
	}
	if len(p) >= 7 {
		h, mi, s = int(p[4]), int(p[5]), int(p[6])
	}
	if len(p) >= 11 {
		us = int(binary.LittleEndian.Uint32(p[7:]))
	}
	b = appendDate(b, y, mo, d)
	if col.typ == typeDate || col.typ == typeNewDate {
		return b
	}
	b = appendClock(append(b, ' '), h, mi, s)
	return appendFrac(b, us, fracDigits(col))
}

// appendBinaryTime formats a binary TIME value (0, 8 or 12 bytes:
// negative(1) days(4) hour minute second [microsecond(4)]) as
// [-]hh:mm:ss[.ffffff], hours including the days.
func appendBinaryTime(b, p []byte, col *column) []byte {
	var neg bool
	var days, h, mi, s, us int
	if len(p) >= 8 {
		neg = p[0] == 1
		days = int(binary.LittleEndian.Uint32(p[1:]))
		h, mi, s = int(p[5]), int(p[6]), int(p[7])
	}
	if len(p) >= 12 {
		us = int(binary.LittleEndian.Uint32(p[8:]))
	}
	if neg {
		b = append(b, '-')
	}
	hours := days*24 + h
	if hours < 100 {
		b = append2(b, hours)
	} else {
		var tmp [12]byte
		i := len(tmp)
		for hours > 0 {
			i--
			tmp[i] = byte('0' + hours%10)
			hours /= 10
		}
		b = append(b, tmp[i:]...)
	}
	b = append(b, ':')
	b = append2(b, mi)
	b = append(b, ':')
	b = append2(b, s)
	return appendFrac(b, us, fracDigits(col))
}

// appendFrac appends '.' and the first digits of a microsecond count.
func appendFrac(b []byte, us, digits int) []byte {
	if digits == 0 {
		return b
	}
	b = append(b, '.')
	div := 100000
	for i := 0; i < digits; i++ {
		b = append(b, byte('0'+us/div%10))
		div /= 10
	}
	return b
}
