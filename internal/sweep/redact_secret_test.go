package sweep

import "testing"

func TestRedactSecret(t *testing.T) {
	tests := []struct {
		name, text, pw, want string
	}{
		{"url user-info", "connect mysql://bench:bench@127.0.0.1:3306/bp failed", "bench", "connect mysql://bench:REDACTED@127.0.0.1:3306/bp failed"},
		{"substring of a table name", "Table 'bp.benchpress_meta' doesn't exist (sysbench run)", "bench", "Table 'bp.benchpress_meta' doesn't exist (sysbench run)"},
		{"dsn parameter", "dsn user=bench password=bench host=db", "bench", "dsn user=bench password=REDACTED host=db"},
		{"properties", "db.passwd: s3cret!\nother: s3cret!x", "s3cret!", "db.passwd: REDACTED\nother: s3cret!x"},
		{"url parameter", "postgres://u@h/db?sslmode=disable&password=p%40ss", "p@ss", "postgres://u@h/db?sslmode=disable&password=REDACTED"},
		{"escaped in user-info", "mysql://u:p%40ss@h:3306/db", "p@ss", "mysql://u:REDACTED@h:3306/db"},
		{"no password", "anything", "", "anything"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RedactSecret(tt.text, tt.pw); got != tt.want {
				t.Fatalf("RedactSecret(%q, %q) = %q, want %q", tt.text, tt.pw, got, tt.want)
			}
		})
	}
}
