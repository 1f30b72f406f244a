package testdb

import (
	"testing"

	"benchpress/internal/target"
)

// Connectors returns a Connector for every target of All(t, name), keyed by
// kind ("sqlite", "mysql", "postgres"); each is closed when the test ends.
func Connectors(t testing.TB, name string, opts target.Options) map[string]*target.Connector {
	t.Helper()
	out := map[string]*target.Connector{}
	for _, tg := range All(t, name) {
		c, err := target.NewConnector(tg, opts)
		if err != nil {
			t.Fatalf("%s: %v", tg.Kind, err)
		}
		t.Cleanup(func() { c.Close() })
		out[string(tg.Kind)] = c
	}
	return out
}
