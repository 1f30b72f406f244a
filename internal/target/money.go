package target

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unsafe"

	"github.com/jackc/pgx/v5/pgtype"
)

// Cents is an exact money amount in hundredths (DECIMAL(n,2)). It scans from
// DECIMAL/NUMERIC columns and SUM() results on every driver: MySQL's textual
// "123.45", pgx numeric/int8/float8 (binary or text protocol) and SQLite's
// float64/int64/string. As a bind argument it encodes as the exact decimal
// string ("-10.00"), which every server converts to DECIMAL/NUMERIC without
// going through binary floating point. Inputs with more than two decimals
// (e.g. AVG()) are rounded half away from zero; NULL is an error (use
// COALESCE).
type Cents int64

// Decimal4 is an exact value in ten-thousandths (DECIMAL(4,4), e.g. the
// TPC-C tax and discount rates); it behaves exactly like Cents.
type Decimal4 int64

const (
	centsScale    = 2
	decimal4Scale = 4
)

// ParseCents parses a decimal string such as "-12.3", "5" or "0.05".
func ParseCents(s string) (Cents, error) {
	v, err := parseScaled(s, centsScale)
	return Cents(v), err
}

// ParseDecimal4 parses a decimal string such as "0.1234" or "-1".
func ParseDecimal4(s string) (Decimal4, error) {
	v, err := parseScaled(s, decimal4Scale)
	return Decimal4(v), err
}

// String formats the exact decimal, always with two decimals: "-10.00".
func (c Cents) String() string { return formatScaled(int64(c), centsScale) }

// String formats the exact decimal, always with four decimals: "0.0500".
func (d Decimal4) String() string { return formatScaled(int64(d), decimal4Scale) }

// Float64 is the approximate value, for arithmetic that need not be exact.
func (c Cents) Float64() float64 { return float64(c) / 100 }

// Float64 is the approximate value, for arithmetic that need not be exact.
func (d Decimal4) Float64() float64 { return float64(d) / 10000 }

// Value implements driver.Valuer with the exact decimal string.
func (c Cents) Value() (driver.Value, error) { return c.String(), nil }

// AppendText appends the decimal text Value returns, without allocating (the
// MySQL protocol client sends it directly).
func (c Cents) AppendText(b []byte) ([]byte, error) {
	return appendScaled(b, int64(c), centsScale), nil
}

// AppendText appends the decimal text Value returns.
func (d Decimal4) AppendText(b []byte) ([]byte, error) {
	return appendScaled(b, int64(d), decimal4Scale), nil
}

// UnmarshalText parses a decimal column's text as Scan does for []byte.
func (c *Cents) UnmarshalText(b []byte) error { return scanText((*int64)(c), b, centsScale, "Cents") }

// UnmarshalText parses a decimal column's text as Scan does for []byte.
func (d *Decimal4) UnmarshalText(b []byte) error {
	return scanText((*int64)(d), b, decimal4Scale, "Decimal4")
}

// Value implements driver.Valuer with the exact decimal string.
func (d Decimal4) Value() (driver.Value, error) { return d.String(), nil }

// Scan implements sql.Scanner.
func (c *Cents) Scan(src any) error { return scanInto((*int64)(c), src, centsScale, "Cents") }

// Scan implements sql.Scanner.
func (d *Decimal4) Scan(src any) error { return scanInto((*int64)(d), src, decimal4Scale, "Decimal4") }

// NumericValue implements pgtype.NumericValuer so that pgx encodes the exact
// value for numeric parameters in the binary protocol.
func (c Cents) NumericValue() (pgtype.Numeric, error) { return toNumeric(int64(c), centsScale), nil }

// NumericValue implements pgtype.NumericValuer.
func (d Decimal4) NumericValue() (pgtype.Numeric, error) {
	return toNumeric(int64(d), decimal4Scale), nil
}

// ScanNumeric implements pgtype.NumericScanner (numeric columns, SUM()).
func (c *Cents) ScanNumeric(n pgtype.Numeric) error {
	return scanNumeric((*int64)(c), n, centsScale, "Cents")
}

// ScanNumeric implements pgtype.NumericScanner.
func (d *Decimal4) ScanNumeric(n pgtype.Numeric) error {
	return scanNumeric((*int64)(d), n, decimal4Scale, "Decimal4")
}

// ScanInt64 implements pgtype.Int64Scanner (integer columns, SUM(int)).
func (c *Cents) ScanInt64(n pgtype.Int8) error {
	return scanInto((*int64)(c), nullable(n.Int64, n.Valid), centsScale, "Cents")
}

// ScanInt64 implements pgtype.Int64Scanner.
func (d *Decimal4) ScanInt64(n pgtype.Int8) error {
	return scanInto((*int64)(d), nullable(n.Int64, n.Valid), decimal4Scale, "Decimal4")
}

// ScanFloat64 implements pgtype.Float64Scanner (float8 columns).
func (c *Cents) ScanFloat64(f pgtype.Float8) error {
	return scanInto((*int64)(c), nullable(f.Float64, f.Valid), centsScale, "Cents")
}

// ScanFloat64 implements pgtype.Float64Scanner.
func (d *Decimal4) ScanFloat64(f pgtype.Float8) error {
	return scanInto((*int64)(d), nullable(f.Float64, f.Valid), decimal4Scale, "Decimal4")
}

func nullable[T any](v T, valid bool) any {
	if !valid {
		return nil
	}
	return v
}

var pow10 = [...]int64{1, 10, 100, 1000, 10000, 100000, 1000000}

func scanText(dst *int64, b []byte, scale int, name string) error {
	v, err := parseScaledBytes(b, scale)
	if err != nil {
		return fmt.Errorf("scan into %s: %w", name, err)
	}
	*dst = v
	return nil
}

func scanInto(dst *int64, src any, scale int, name string) error {
	var err error
	switch v := src.(type) {
	case nil:
		return fmt.Errorf("cannot scan NULL into %s (use COALESCE)", name)
	case []byte:
		*dst, err = parseScaledBytes(v, scale)
	case string:
		*dst, err = parseScaled(v, scale)
	case int64:
		*dst, err = mulScale(v, scale)
	case float64:
		*dst, err = floatScaled(v, scale)
	case float32:
		*dst, err = floatScaled(float64(v), scale)
	case int32:
		*dst, err = mulScale(int64(v), scale)
	case int:
		*dst, err = mulScale(int64(v), scale)
	default:
		return fmt.Errorf("cannot scan %T into %s", src, name)
	}
	if err != nil {
		return fmt.Errorf("scan into %s: %w", name, err)
	}
	return nil
}

var errRange = errors.New("value out of range")

func mulScale(v int64, scale int) (int64, error) {
	m := pow10[scale]
	if v > math.MaxInt64/m || v < math.MinInt64/m {
		return 0, errRange
	}
	return v * m, nil
}

func floatScaled(f float64, scale int) (int64, error) {
	r := math.Round(f * float64(pow10[scale]))
	if math.IsNaN(r) || r >= math.MaxInt64 || r < math.MinInt64 {
		return 0, fmt.Errorf("%v: %w", f, errRange)
	}
	return int64(r), nil
}

// parseScaledBytes is parseScaled on a column's bytes, without copying them
// (parseScaled does not retain its argument; error messages copy it).
func parseScaledBytes(b []byte, scale int) (int64, error) {
	if len(b) == 0 {
		return parseScaled("", scale)
	}
	return parseScaled(unsafe.String(unsafe.SliceData(b), len(b)), scale)
}

// parseScaled parses [+-]digits[.digits] exactly into units of 10^-scale;
// extra decimals round half away from zero. Exponent forms ("1.5e3", as
// MySQL prints DOUBLE sums) fall back to float parsing.
func parseScaled(s string, scale int) (int64, error) {
	orig := s
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid decimal %q", orig)
		}
		return floatScaled(f, scale)
	}
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart == "" && frac == "" {
		return 0, fmt.Errorf("invalid decimal %q", orig)
	}
	// Accumulate the magnitude in uint64; the sign is applied at the end.
	var u uint64
	ok := true
	push := func(d uint64) {
		if u > (math.MaxUint64-d)/10 {
			ok = false
		}
		u = u*10 + d
	}
	for i := 0; i < len(intPart); i++ {
		ch := intPart[i]
		if ch < '0' || ch > '9' {
			return 0, fmt.Errorf("invalid decimal %q", orig)
		}
		push(uint64(ch - '0'))
	}
	roundUp := false
	for i := 0; i < len(frac); i++ {
		ch := frac[i]
		if ch < '0' || ch > '9' {
			return 0, fmt.Errorf("invalid decimal %q", orig)
		}
		switch {
		case i < scale:
			push(uint64(ch - '0'))
		case i == scale:
			roundUp = ch >= '5'
		}
	}
	for i := len(frac); i < scale; i++ {
		push(0)
	}
	if roundUp {
		if u == math.MaxUint64 {
			ok = false
		}
		u++
	}
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	if !ok || u > limit {
		return 0, fmt.Errorf("decimal %q: %w", orig, errRange)
	}
	if neg {
		return int64(-u), nil
	}
	return int64(u), nil
}

func formatScaled(v int64, scale int) string {
	var buf [24]byte
	return string(appendScaled(buf[:0], v, scale))
}

// appendScaled appends v (in units of 10^-scale) as decimal text.
func appendScaled(b []byte, v int64, scale int) []byte {
	var buf [24]byte
	u := uint64(v)
	if v < 0 {
		u = uint64(-v) // MinInt64 wraps to its own magnitude as uint64
	}
	i := len(buf)
	for d := 0; d <= scale || u > 0; d++ {
		if d == scale {
			i--
			buf[i] = '.'
		}
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
	}
	if v < 0 {
		i--
		buf[i] = '-'
	}
	return append(b, buf[i:]...)
}

func toNumeric(v int64, scale int) pgtype.Numeric {
	return pgtype.Numeric{Int: big.NewInt(v), Exp: int32(-scale), Valid: true}
}

func scanNumeric(dst *int64, n pgtype.Numeric, scale int, name string) error {
	if !n.Valid {
		return fmt.Errorf("cannot scan NULL into %s (use COALESCE)", name)
	}
	if n.NaN || n.InfinityModifier != pgtype.Finite {
		return fmt.Errorf("cannot scan non-finite numeric into %s", name)
	}
	i := new(big.Int).Set(n.Int)
	shift := int(n.Exp) + scale
	switch {
	case shift > 0:
		i.Mul(i, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(shift)), nil))
	case shift < 0:
		div := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-shift)), nil)
		q, r := new(big.Int).QuoRem(i, div, new(big.Int))
		// round half away from zero
		if r.Sign() != 0 {
			r.Abs(r).Mul(r, big.NewInt(2))
			if r.Cmp(div) >= 0 {
				q.Add(q, big.NewInt(int64(i.Sign())))
			}
		}
		i = q
	}
	if !i.IsInt64() {
		return fmt.Errorf("scan into %s: %w", name, errRange)
	}
	*dst = i.Int64()
	return nil
}
