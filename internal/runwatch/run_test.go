package runwatch

import (
	"strings"
	"testing"

	"benchpress/internal/results"
)

// TestCommitsComparable: transactional workloads compare one commit per
// transaction, autocommit ones do not, and nothing does through a sharding
// proxy, which says why.
func TestCommitsComparable(t *testing.T) {
	const ss = "5.7.22-ShardingSphere-Proxy 5.1.0"
	tests := []struct {
		workload, version string
		skipTrx           bool
		want              bool
		why               string
	}{
		{"tpcc", "10.11.19-MariaDB-0+deb12u1", false, true, ""},
		{"sysbench/oltp_read_write", "15.18", false, true, ""},
		{"sysbench/oltp_read_write", "15.18", true, false, ""},
		{"sysbench/oltp_point_select", "15.18", false, false, ""},
		{"sysbench/oltp_read_only", "15.18", false, true, ""},
		{"sysbench/oltp_write_only", "10.11.19-MariaDB-0+deb12u1", false, true, ""},
		{"sysbench/oltp_update_index", "10.11.19-MariaDB-0+deb12u1", false, false, ""},
		{"sysbench/oltp_update_non_index", "15.18", false, false, ""},
		{"sysbench/oltp_insert", "15.18", false, false, ""},
		{"sysbench/oltp_delete", "15.18", false, false, ""},
		{"sysbench/oltp_read_write_split", "15.18", false, false, ""},
		{"ycsb/a", "15.18", false, false, ""},
		{"tpcc", ss, false, false, "through ShardingSphere-Proxy"},
		{"ycsb/a", ss, false, false, ""},
	}
	for _, tc := range tests {
		run := &results.Run{Workload: tc.workload, ServerVersion: tc.version, Config: map[string]any{"skip_trx": tc.skipTrx}}
		ok, why := commitsComparable(run)
		if ok != tc.want || !strings.HasPrefix(why, tc.why) || (tc.why == "") != (why == "") {
			t.Errorf("%s on %q (skip_trx %v): %v %q, want %v %q...", tc.workload, tc.version, tc.skipTrx, ok, why, tc.want, tc.why)
		}
	}
	// One partition of a split run: the server counts every partition's.
	for _, p := range []struct {
		part *results.Partition
		want bool
	}{{nil, true}, {&results.Partition{Index: 1, Count: 2}, false}} {
		run := &results.Run{Workload: "tpcc", ServerVersion: "15.18", Partition: p.part}
		ok, why := commitsComparable(run)
		if ok != p.want || (p.want != (why == "")) || (!p.want && !strings.HasPrefix(why, "partition 1/2")) {
			t.Errorf("tpcc, partition %+v: %v %q, want %v", p.part, ok, why, p.want)
		}
	}
}

func TestHasRawBytes(t *testing.T) {
	for _, tc := range []struct {
		workload string
		want     bool
	}{{"tpcc", true}, {"ycsb/a", false}, {"sysbench/oltp_read_write", false}, {"", false}} {
		if got := hasRawBytes(tc.workload); got != tc.want {
			t.Errorf("hasRawBytes(%q) = %v, want %v", tc.workload, got, tc.want)
		}
	}
}

// TestDBNote: counters that could not be read (the admin session killed
// with the terminals) leave a note that the commit check was not made,
// like commit counts that disagree; agreeing counts leave none.
func TestDBNote(t *testing.T) {
	tests := []struct {
		db   *results.DBFigures
		want string
	}{
		{nil, ""},
		{&results.DBFigures{CommitCheck: "agree"}, ""},
		{&results.DBFigures{CommitCheck: "disagree", CommitNote: "server 10, tool 20"}, "commit counts disagree: server 10, tool 20"},
		{&results.DBFigures{Kind: "mysql", Error: "database counters: invalid connection"},
			"database counters could not be read, so the commit check could not be made: invalid connection"},
		{&results.DBFigures{Kind: "postgres", Error: "FATAL: terminating connection due to administrator command (SQLSTATE 57P01)"},
			"database counters could not be read, so the commit check could not be made: FATAL: terminating connection due to administrator command (SQLSTATE 57P01)"},
	}
	for _, tc := range tests {
		if got := dbNote(tc.db); got != tc.want {
			t.Errorf("dbNote(%+v) = %q, want %q", tc.db, got, tc.want)
		}
	}
}
