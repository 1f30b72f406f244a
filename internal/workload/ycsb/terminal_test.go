package ycsb

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"benchpress/internal/metrics"
	"benchpress/internal/target"
)

func newTerm(t *testing.T, p Props, conn *fakeConn) (*Workload, *terminal) {
	t.Helper()
	p = p.Merge(Props{"seed": "1"})
	w, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	term, err := w.NewTerminal(context.Background(), 0, 1, conn)
	if err != nil {
		t.Fatal(err)
	}
	return w, term.(*terminal)
}

func TestOperationMix(t *testing.T) {
	p, _ := Properties("b")
	_, term := newTerm(t, p, &fakeConn{rows: 1, affected: 1})
	var counts [numOps]int
	for i := 0; i < 100000; i++ {
		counts[term.Next()]++
	}
	if f := float64(counts[OpRead]) / 100000; f < 0.94 || f > 0.96 {
		t.Errorf("read share %.3f, want 0.95", f)
	}
	if counts[OpInsert]+counts[OpScan]+counts[OpReadModifyWrite] != 0 {
		t.Errorf("unexpected ops: %v", counts)
	}
}

func TestOpsSQLAndReturnCodes(t *testing.T) {
	p, _ := Properties("a")
	p = p.Merge(Props{"insertproportion": "0.1", "scanproportion": "0.1", "readmodifywriteproportion": "0.1"})
	conn := &fakeConn{rows: 1, affected: 1}
	w, term := newTerm(t, p, conn)
	ctx := context.Background()
	cases := []struct {
		op       int
		rows     int
		prefix   []string
		counter  string
		notFound bool // fails with errNotFound (YCSB's <OP>-FAILED)
	}{
		{OpRead, 1, []string{"SELECT YCSB_KEY, FIELD0, FIELD1"}, "READ.OK", false},
		{OpRead, 0, []string{"SELECT"}, "READ.NOT_FOUND", true},
		{OpUpdate, 1, []string{"UPDATE usertable SET FIELD"}, "UPDATE.OK", false},
		{OpInsert, 1, []string{"INSERT INTO usertable (YCSB_KEY, FIELD0"}, "INSERT.OK", false},
		{OpScan, 5, []string{"SELECT YCSB_KEY, FIELD0"}, "SCAN.OK", false},
		{OpReadModifyWrite, 1, []string{"SELECT", "UPDATE"}, "READ-MODIFY-WRITE.OK", false},
	}
	names := w.Extras()
	idx := func(name string) int {
		for i, n := range names {
			if n == name {
				return i
			}
		}
		t.Fatalf("no extra %s", name)
		return -1
	}
	for _, c := range cases {
		conn.log, conn.rows = nil, c.rows
		out, err := term.Exec(ctx, c.op)
		var nf *errNotFound
		switch {
		case c.notFound && (!errors.As(err, &nf) || out != metrics.Failed || !strings.Contains(err.Error(), "no row with key user")):
			t.Errorf("op %s found no row: got %v, %v; want a failed operation naming the key", opNames[c.op], out, err)
		case !c.notFound && err != nil:
			t.Fatal(err)
		}
		if len(conn.log) != len(c.prefix) {
			t.Fatalf("op %s sent %v", opNames[c.op], conn.log)
		}
		for i, pre := range c.prefix {
			if !strings.HasPrefix(conn.log[i], pre) {
				t.Errorf("op %s statement %d = %q, want prefix %q", opNames[c.op], i, conn.log[i], pre)
			}
		}
		if term.extras[idx(c.counter)] == 0 {
			t.Errorf("op %s: %s not counted", opNames[c.op], c.counter)
		}
	}
	if w.Inserted() != 1 || w.inserts.Last() != 1000 {
		t.Errorf("inserted %d, last %d", w.Inserted(), w.inserts.Last())
	}
	if !strings.Contains(conn.log[0], "") || term.extras[exScanRecords] != 5 {
		t.Errorf("scan records %d", term.extras[exScanRecords])
	}
}

// Reads never target keys beyond the last acknowledged insert (§3.5).
func TestKeysWithinAcknowledged(t *testing.T) {
	for _, dist := range []string{"uniform", "zipfian", "latest", "hotspot"} {
		t.Run(dist, func(t *testing.T) {
			p := Props{"recordcount": "100", "operationcount": "20", "insertproportion": "0.5", "readproportion": "0.5",
				"requestdistribution": dist, "insertorder": "ordered"}
			w, term := newTerm(t, p, &fakeConn{})
			inFlight := w.inserts.Next() // never acknowledged: key 100
			seen := map[string]bool{}
			for i := 0; i < 20000; i++ {
				k := term.nextKey()
				if k == "user100" || len(k) > len("user99") {
					t.Fatalf("drew unacknowledged key %s (in flight %d)", k, inFlight)
				}
				seen[k] = true
			}
			if len(seen) < 20 {
				t.Errorf("only %d distinct keys", len(seen))
			}
		})
	}
}

// A failed read-modify-write names the statement that failed; the error
// keeps the server's code for classification.
func TestReadModifyWriteErrorNamesTheStatement(t *testing.T) {
	boom := &mysql.MySQLError{Number: 1213, Message: "Deadlock found when trying to get lock; try restarting transaction"}
	for _, tc := range []struct{ failOn, want string }{
		{"SELECT", "read: Error 1213"},
		{"UPDATE", "update: Error 1213"},
	} {
		p, _ := Properties("f")
		_, term := newTerm(t, p, &fakeConn{rows: 1, affected: 1, failOn: tc.failOn, failErr: boom})
		_, err := term.Exec(context.Background(), OpReadModifyWrite)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || target.Classify(err) != target.ClassDeadlock {
			t.Errorf("%s fails: error %v, want %q... of class deadlock", tc.failOn, err, tc.want)
		}
	}
}
