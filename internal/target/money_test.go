package target

import (
	"math/big"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
)

func TestParseCents(t *testing.T) {
	tests := []struct {
		in      string
		want    Cents
		wantErr bool
	}{
		{"123.45", 12345, false},
		{"-10.00", -1000, false},
		{"5", 500, false},
		{"5.1", 510, false},
		{"-5.1", -510, false},
		{"0.05", 5, false},
		{"-0.05", -5, false},
		{".5", 50, false},
		{"5.", 500, false},
		{"+7.25", 725, false},
		{"1.005", 101, false}, // extra decimals round half away from zero
		{"-1.005", -101, false},
		{"1.004", 100, false},
		{"12.340000", 1234, false},
		{"1.5e3", 150000, false},
		{"92233720368547758.07", 9223372036854775807, false},
		{"92233720368547758.08", 0, true},
		{"", 0, true},
		{"-", 0, true},
		{".", 0, true},
		{"1.2.3", 0, true},
		{"abc", 0, true},
		{"1,5", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseCents(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseCents(%q) = %d, %v; want %d, err=%v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestParseDecimal4(t *testing.T) {
	tests := []struct {
		in   string
		want Decimal4
	}{
		{"0.1234", 1234}, {"0.05", 500}, {"-0.0001", -1}, {"1", 10000}, {"0.12345", 1235},
	}
	for _, tt := range tests {
		got, err := ParseDecimal4(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseDecimal4(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		v    int64
		c, d string
	}{
		{0, "0.00", "0.0000"},
		{5, "0.05", "0.0005"},
		{-5, "-0.05", "-0.0005"},
		{-1000, "-10.00", "-0.1000"},
		{12345, "123.45", "1.2345"},
		{9223372036854775807, "92233720368547758.07", "922337203685477.5807"},
		{-9223372036854775808, "-92233720368547758.08", "-922337203685477.5808"},
	}
	for _, tt := range tests {
		if got := Cents(tt.v).String(); got != tt.c {
			t.Errorf("Cents(%d) = %q, want %q", tt.v, got, tt.c)
		}
		if got := Decimal4(tt.v).String(); got != tt.d {
			t.Errorf("Decimal4(%d) = %q, want %q", tt.v, got, tt.d)
		}
		if back, err := ParseCents(tt.c); err != nil || int64(back) != tt.v {
			t.Errorf("ParseCents(%q) = %d, %v; want %d", tt.c, back, err, tt.v)
		}
	}
	if v, _ := Cents(-1000).Value(); v != "-10.00" {
		t.Errorf("Value() = %v", v)
	}
}

func TestCentsScan(t *testing.T) {
	tests := []struct {
		name    string
		src     any
		want    Cents
		wantErr bool
	}{
		{"mysql bytes", []byte("123.45"), 12345, false},
		{"string", "-3.5", -350, false},
		{"sqlite int", int64(12), 1200, false},
		{"sqlite float", 12.34, 1234, false},
		{"sqlite float sum", 0.1 + 0.2, 30, false},
		{"null", nil, 0, true},
		{"bool", true, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Cents
			err := c.Scan(tt.src)
			if (err != nil) != tt.wantErr || c != tt.want {
				t.Fatalf("Scan(%v) = %d, %v; want %d, err=%v", tt.src, c, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestScanNumeric(t *testing.T) {
	tests := []struct {
		name    string
		n       pgtype.Numeric
		want    Cents
		wantErr bool
	}{
		{"exp -2", pgtype.Numeric{Int: big.NewInt(-1234), Exp: -2, Valid: true}, -1234, false},
		{"exp 0", pgtype.Numeric{Int: big.NewInt(5), Exp: 0, Valid: true}, 500, false},
		{"exp 1", pgtype.Numeric{Int: big.NewInt(5), Exp: 1, Valid: true}, 5000, false},
		{"exp -4 rounds", pgtype.Numeric{Int: big.NewInt(12345), Exp: -4, Valid: true}, 123, false},
		{"exp -3 half away", pgtype.Numeric{Int: big.NewInt(-1005), Exp: -3, Valid: true}, -101, false},
		{"null", pgtype.Numeric{}, 0, true},
		{"nan", pgtype.Numeric{NaN: true, Valid: true}, 0, true},
		{"overflow", pgtype.Numeric{Int: big.NewInt(1), Exp: 30, Valid: true}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Cents
			err := c.ScanNumeric(tt.n)
			if (err != nil) != tt.wantErr || c != tt.want {
				t.Fatalf("ScanNumeric = %d, %v; want %d, err=%v", c, err, tt.want, tt.wantErr)
			}
		})
	}
}
