package load

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

// versionConn is a fakeConn that reports a server version.
type versionConn struct {
	fakeConn
	version string
}

func (c *versionConn) ServerVersion() string { return c.version }

// TestBulkFailed: what a failed LOAD DATA / COPY becomes under each method,
// through a proxy and on a server.
func TestBulkFailed(t *testing.T) {
	const ss = "5.5.5-10.11.19-MariaDB-0+deb12u1-ShardingSphere-Proxy 5.1.0"
	ssRefusal := &mysql.MySQLError{Number: 1997, Message: "Runtime exception: [Can not find visitor rule: `LoadStatementContext`]"}
	tests := []struct {
		name     string
		version  string
		method   Method
		stmt     string
		rows     int64
		err      error
		fallback bool
		has      []string // in the warning (fallback) or the error
		hasNot   []string
	}{
		{"proxy refuses LOAD DATA", ss, MethodAuto, "LOAD DATA LOCAL INFILE", 0, ssRefusal, true,
			[]string{"ShardingSphere-Proxy refused LOAD DATA LOCAL INFILE into t", "LoadStatementContext", "batched INSERT"}, []string{"local_infile"}},
		{"proxy refuses after streaming (COPY)", "12.3-ShardingSphere-Proxy 5.1.0", MethodAuto, "COPY", 500,
			&pgconn.PgError{Code: "42P01", Message: `relation "t" does not exist`}, true, []string{"ShardingSphere-Proxy refused COPY"}, nil},
		{"server with local_infile off", "10.11.19-MariaDB", MethodAuto, "LOAD DATA LOCAL INFILE", 0,
			&mysql.MySQLError{Number: 1148, Message: "The used command is not allowed"}, true, []string{"SET GLOBAL local_infile=1"}, nil},
		{"server refuses for another reason", "10.11.19-MariaDB", MethodAuto, "LOAD DATA LOCAL INFILE", 0,
			&mysql.MySQLError{Number: 1290, Message: "--read-only"}, true, []string{"the target refused", "--read-only"}, []string{"local_infile"}},
		{"server fails mid-stream", "10.11.19-MariaDB", MethodAuto, "LOAD DATA LOCAL INFILE", 10,
			&mysql.MySQLError{Number: 1062, Message: "Duplicate entry"}, false, []string{"into t", "Duplicate entry"}, nil},
		// pgx streams before the answer: the rows sent are not known (-1);
		// the SQLSTATE tells a refusal of COPY from a failure in the data.
		{"server refuses COPY", "15.18", MethodAuto, "COPY", -1,
			&pgconn.PgError{Code: "0A000", Message: "COPY FROM STDIN is not supported"}, true, []string{"the target refused COPY"}, nil},
		{"COPY fails in the data", "15.18", MethodAuto, "COPY", -1,
			&pgconn.PgError{Code: "22P02", Message: "invalid input syntax for type integer"}, false, []string{"COPY into t", "invalid input syntax"}, nil},
		{"lost connection", ss, MethodAuto, "LOAD DATA LOCAL INFILE", 0, mysql.ErrInvalidConn, false, []string{"invalid connection"}, nil},
		{"bulk required through a proxy", ss, MethodBulk, "LOAD DATA LOCAL INFILE", 0, ssRefusal, false,
			[]string{"ShardingSphere-Proxy does not pass LOAD DATA LOCAL INFILE on", "--load-method insert"}, []string{"local_infile=1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBulkState(tc.method)
			conn := &versionConn{version: tc.version}
			err := b.bulkFailed(conn, "t", tc.stmt, tc.rows, tc.err)
			if got := errors.Is(err, errInsertFallback); got != tc.fallback {
				t.Fatalf("fallback %v, want %v (err %v)", got, tc.fallback, err)
			}
			text := fmt.Sprint(err)
			if tc.fallback {
				if len(b.warnings) != 1 || !b.refused.Load() {
					t.Fatalf("warnings %q, refused %v", b.warnings, b.refused.Load())
				}
				text = b.warnings[0]
			}
			for _, h := range tc.has {
				if !strings.Contains(text, h) {
					t.Errorf("%q lacks %q", text, h)
				}
			}
			for _, h := range tc.hasNot {
				if strings.Contains(text, h) {
					t.Errorf("%q has %q", text, h)
				}
			}
		})
	}
}
