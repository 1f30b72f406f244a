package ycsb

import (
	"context"
	"errors"
	"strings"
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

// The last record is inserted alone, after every other one: CheckLoaded
// takes it as the mark of a complete load, so a load that failed in any
// range never passes for one.
func TestLoadInsertsLastRecordLast(t *testing.T) {
	p, err := Properties("a")
	if err != nil {
		t.Fatal(err)
	}
	p = p.Merge(Props{"recordcount": "50"})
	c := &fakeConn{affected: 1}
	if err := Load(context.Background(), fakeDialer{c}, p, 1, nil); err != nil {
		t.Fatal(err)
	}
	var inserts []int // rows per INSERT, in order
	for _, q := range c.log {
		if strings.HasPrefix(q, "INSERT") {
			inserts = append(inserts, strings.Count(q, "?")/11)
		}
	}
	if len(inserts) != 2 || inserts[0] != 49 || inserts[1] != 1 {
		t.Fatalf("rows per INSERT %v, want [49 1]", inserts)
	}

	failing := &fakeConn{affected: 1, failOn: "INSERT", failErr: errors.New("disk full")}
	if err := Load(context.Background(), fakeDialer{failing}, p, 1, nil); err == nil {
		t.Fatal("a failed range did not fail the load")
	}
	n := 0
	for _, q := range failing.log {
		if strings.HasPrefix(q, "INSERT") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d INSERTs after the first failed, want none (the last record stays unloaded)", n-1)
	}
}
