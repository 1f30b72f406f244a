package report

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A table cell keeps a long error's head and its tail (the server's own
// text, last in a wrapped Go error), cut on character boundaries; a note
// keeps every line.
func TestErrorTexts(t *testing.T) {
	limit := "106 of 256 connections failed at start: connect 127.0.0.1:3307: Error 1226 (42000): " +
		"User 'ux_lim' has exceeded the 'max_user_connections' resource (current value: 151)"
	zh := strings.Repeat("错误", 80) + ": 连接数超过上限 (current value: 151)" // 190 characters, 3 bytes each
	tests := []struct {
		name, in, cell, note string
	}{
		{"short", "dial tcp: connection refused", "dial tcp: connection refused", "dial tcp: connection refused"},
		{"joined", "first failure\nsecond failure\n", "first failure", "first failure; second failure"},
		{"long keeps the server's tail", limit, "", limit},
		{"multibyte", zh, "", zh},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cell := firstLine(tc.in)
			if tc.cell != "" && cell != tc.cell {
				t.Errorf("cell %q, want %q", cell, tc.cell)
			}
			if !utf8.ValidString(cell) || utf8.RuneCountInString(cell) > 160 {
				t.Errorf("cell %q: invalid UTF-8 or over 160 characters", cell)
			}
			if tc.cell == "" && !strings.HasSuffix(cell, "(current value: 151)") {
				t.Errorf("cell %q lost the message's tail", cell)
			}
			if got := oneLine(tc.in); got != tc.note {
				t.Errorf("note %q, want %q", got, tc.note)
			}
		})
	}
}

// Chart file names of ids that differ only in replaced characters differ.
func TestSafeName(t *testing.T) {
	if got := safeName("proxy-8.c_1"); got != "proxy-8.c_1" {
		t.Errorf("safeName of a safe id = %q, want it unchanged", got)
	}
	a, b := safeName("直连"), safeName("代理")
	if a == b || strings.ContainsAny(a+b, "直连代理/") {
		t.Errorf("safeName(直连) = %q, safeName(代理) = %q: want distinct ASCII names", a, b)
	}
}
