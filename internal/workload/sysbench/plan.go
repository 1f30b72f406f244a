package sysbench

import (
	"fmt"
	"slices"
	"strings"
)

// stepKind is one statement group of an event (reference §2.5). Each group
// draws its table once (§2.6) and runs its statement n times.
type stepKind uint8

const (
	stBegin          stepKind = iota // BEGIN (other)
	stCommit                         // COMMIT (other)
	stPoint                          // SELECT c ... WHERE id=?
	stSimple                         // SELECT c ... BETWEEN
	stSum                            // SELECT SUM(k) ... BETWEEN
	stOrder                          // SELECT c ... BETWEEN ... ORDER BY c
	stDistinct                       // SELECT DISTINCT c ... BETWEEN ... ORDER BY c
	stIndexUpdate                    // UPDATE ... SET k=k+1
	stNonIndexUpdate                 // UPDATE ... SET c=?
	stDeleteInsert                   // DELETE id; INSERT the same id
	stDelete                         // oltp_delete: DELETE only
	stInsert                         // oltp_insert: INSERT a new row
)

// step is one group of an event plan.
type step struct {
	kind  stepKind
	n     int  // statements in the group (pairs for stDeleteInsert)
	write bool // for stBegin: the transaction writes
}

// Test names (reference §2.5), plus seed 001's read/write split variant.
const (
	PointSelect    = "oltp_point_select"
	ReadOnly       = "oltp_read_only"
	ReadWrite      = "oltp_read_write"
	WriteOnly      = "oltp_write_only"
	UpdateIndex    = "oltp_update_index"
	UpdateNonIndex = "oltp_update_non_index"
	Insert         = "oltp_insert"
	Delete         = "oltp_delete"
	ReadWriteSplit = "oltp_read_write_split"
)

var testNames = []string{PointSelect, ReadOnly, ReadWrite, WriteOnly, UpdateIndex, UpdateNonIndex, Insert, Delete, ReadWriteSplit}

// Tests lists the supported sysbench tests.
func Tests() []string { return slices.Clone(testNames) }

// buildPlan returns the statement groups of one event of test, in order,
// following the Lua scripts (reference §2.5). Groups with n = 0 are dropped.
//
// oltp_read_write_split is the seed-001 variant of oltp_read_write: the point
// selects and the simple, sum and order ranges run first in autocommit
// (outside the transaction, so a proxy may route them to replicas); the
// distinct range and the writes run inside BEGIN..COMMIT. Its queries per
// event equal oltp_read_write's (20 by default).
func buildPlan(test string, o *Options) ([]step, error) {
	var p []step
	add := func(k stepKind, n int) {
		if n > 0 {
			p = append(p, step{kind: k, n: n})
		}
	}
	begin := func(write bool) {
		if !o.SkipTrx {
			p = append(p, step{kind: stBegin, n: 1, write: write})
		}
	}
	commit := func() {
		if !o.SkipTrx {
			p = append(p, step{kind: stCommit, n: 1})
		}
	}
	ranges := func(kinds ...stepKind) {
		if !o.RangeSelects {
			return
		}
		for _, k := range kinds {
			add(k, map[stepKind]int{stSimple: o.SimpleRanges, stSum: o.SumRanges, stOrder: o.OrderRanges, stDistinct: o.DistinctRanges}[k])
		}
	}
	writes := func() {
		add(stIndexUpdate, o.IndexUpdates)
		add(stNonIndexUpdate, o.NonIndexUpdates)
		add(stDeleteInsert, o.DeleteInserts)
	}
	switch test {
	case PointSelect:
		add(stPoint, 1) // the script forces point_selects=1, no transaction
	case ReadOnly:
		begin(false)
		add(stPoint, o.PointSelects)
		ranges(stSimple, stSum, stOrder, stDistinct)
		commit()
	case ReadWrite:
		begin(true)
		add(stPoint, o.PointSelects)
		ranges(stSimple, stSum, stOrder, stDistinct)
		writes()
		commit()
	case WriteOnly:
		begin(true)
		writes()
		commit()
	case UpdateIndex:
		add(stIndexUpdate, o.IndexUpdates)
	case UpdateNonIndex:
		add(stNonIndexUpdate, o.NonIndexUpdates)
	case Delete:
		add(stDelete, 1)
	case Insert:
		add(stInsert, 1)
	case ReadWriteSplit:
		add(stPoint, o.PointSelects)
		ranges(stSimple, stSum, stOrder)
		begin(true)
		ranges(stDistinct)
		writes()
		commit()
	default:
		return nil, fmt.Errorf("unknown sysbench test %q (want one of %s)", test, strings.Join(testNames, ", "))
	}
	if len(p) == 0 {
		return nil, fmt.Errorf("%s: the options leave no statement to run", test)
	}
	return p, nil
}

// statementsPerEvent is the number of queries (BEGIN/COMMIT included) one
// successful event sends.
func statementsPerEvent(p []step) int {
	n := 0
	for _, s := range p {
		if s.kind == stDeleteInsert {
			n += 2 * s.n
		} else {
			n += s.n
		}
	}
	return n
}
