package cli

import (
	"context"
	"testing"

	"benchpress/internal/testdb"
)

func TestProbeTargetReportsSettings(t *testing.T) {
	want := map[string][]string{
		"sqlite":   {"version", "journal_mode"},
		"mysql":    {"version", "innodb_buffer_pool_size", "isolation", "max_connections"},
		"postgres": {"version", "shared_buffers", "isolation", "max_connections"},
	}
	for _, tg := range testdb.All(t, "cli_probe") {
		t.Run(string(tg.Kind), func(t *testing.T) {
			got, err := stepRunner{app: &App{Getenv: func(string) string { return "" }}}.ProbeTarget(context.Background(), urlOf(tg))
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range want[string(tg.Kind)] {
				if got[k] == "" {
					t.Errorf("setting %q missing: %v", k, got)
				}
			}
		})
	}
}
