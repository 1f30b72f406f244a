package target

import (
	"database/sql"
	"testing"
	"time"
)

var _ sql.Scanner = (*TextBuf)(nil)

func TestTextBufScan(t *testing.T) {
	ts := time.Date(2026, 11, 27, 1, 2, 3, 4, time.UTC)
	tests := []struct {
		name   string
		src    any
		want   string
		errors bool
	}{
		{"string", "héllo", "héllo", false},
		{"bytes", []byte("ab c"), "ab c", false},
		{"empty", "", "", false},
		{"int64", int64(-42), "-42", false},
		{"float64", 2.5, "2.5", false},
		{"bool", true, "true", false},
		{"time", ts, "2026-11-27T01:02:03.000000004Z", false},
		{"NULL", nil, "", true},
		{"other", struct{}{}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b TextBuf
			b.SetString("previous value, longer")
			err := b.Scan(tt.src)
			if (err != nil) != tt.errors {
				t.Fatalf("err = %v, want error %v", err, tt.errors)
			}
			if !tt.errors && !b.Equal(tt.want) {
				t.Errorf("text %q, want %q", b.String(), tt.want)
			}
		})
	}
}

// TestTextBufOwnsItsBytes: what a TextBuf took from a scan or Set is its
// own copy (the clients reuse their read buffers), and reusing it does not
// allocate once it has grown.
func TestTextBufOwnsItsBytes(t *testing.T) {
	src := []byte("ORIGINAL stock")
	var b TextBuf
	if err := b.UnmarshalText(src); err != nil {
		t.Fatal(err)
	}
	copy(src, "xxxxxxxx")
	if !b.Equal("ORIGINAL stock") || !b.Contains("ORIGINAL") || b.Contains("xxx") || b.Len() != 14 {
		t.Fatalf("text %q after the source changed", b.String())
	}
	out, err := b.AppendText([]byte("a:"))
	if err != nil || string(out) != "a:ORIGINAL stock" {
		t.Errorf("AppendText = %q, %v", out, err)
	}
	if v, err := b.Value(); err != nil || v != "ORIGINAL stock" {
		t.Errorf("Value = %v, %v", v, err)
	}
	long, short := []byte("a longer text than before"), []byte("short")
	b.Set(long)
	if n := testing.AllocsPerRun(100, func() { b.Set(short); b.Set(long); _ = b.UnmarshalText(short) }); n != 0 {
		t.Errorf("Set and UnmarshalText allocate %.0f times once grown", n)
	}
}
