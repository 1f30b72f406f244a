package target

import "testing"

func TestRewritePlaceholders(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"SELECT * FROM t WHERE a = ? AND b = ?", "SELECT * FROM t WHERE a = $1 AND b = $2"},
		{"SELECT '?', ? FROM t", "SELECT '?', $1 FROM t"},
		{"SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1"},
		{`SELECT "we?ird", ?`, `SELECT "we?ird", $1`},
		{"SELECT ? -- why?\n, ?", "SELECT $1 -- why?\n, $2"},
		{"SELECT /* ? */ ?", "SELECT /* ? */ $1"},
		{"SELECT 'unterminated ?", "SELECT 'unterminated ?"},
		{"INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?,?)", "INSERT INTO t VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)"},
	}
	for _, tt := range tests {
		if got := rewritePlaceholders(tt.in); got != tt.want {
			t.Errorf("rewritePlaceholders(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
