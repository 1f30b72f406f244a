package ycsb

import (
	"context"
	"testing"

	"benchpress/internal/target"
)

type fakeDialer struct{ c *fakeConn }

func (d fakeDialer) Connect(context.Context) (target.Conn, error) { return d.c, nil }

// The load draws field lengths from the same generators as the run: every
// fieldlengthdistribution `run` accepts loads (zipfian panicked: the load
// built its workload without the zipfian generator).
func TestLoadFieldLengthDistributions(t *testing.T) {
	for _, dist := range []string{"constant", "uniform", "zipfian"} {
		t.Run(dist, func(t *testing.T) {
			p, err := Properties("a")
			if err != nil {
				t.Fatal(err)
			}
			p = p.Merge(Props{"recordcount": "50", "fieldlengthdistribution": dist})
			c := &fakeConn{affected: 1}
			if err := Load(context.Background(), fakeDialer{c}, p, 1, nil); err != nil {
				t.Fatal(err)
			}
			if len(c.log) < 2 {
				t.Fatalf("sent %d statements, want CREATE TABLE and INSERTs", len(c.log))
			}
		})
	}
}
