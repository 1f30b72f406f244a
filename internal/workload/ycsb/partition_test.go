package ycsb

import "testing"

// TestPartitionable: workloads without inserts split by thread; those that
// insert would insert the same keys in every partition and are refused.
func TestPartitionable(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{{"a", true}, {"b", true}, {"c", true}, {"d", false}, {"e", false}, {"f", true}} {
		p, err := Properties(c.name)
		if err != nil {
			t.Fatal(err)
		}
		w, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Partitionable(); (err == nil) != c.ok {
			t.Errorf("workload %s: Partitionable() = %v, want ok=%v", c.name, err, c.ok)
		}
	}
}
