package monitor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"benchpress/internal/results"
	"benchpress/internal/target"
)

// RawBytesKey is the benchpress_meta key (TPC-C's metadata table) holding
// the raw bytes a full prepare generated, so that later runs can state the
// compression ratio of the data set.
const RawBytesKey = "raw_bytes"

// PrintDataSize prints seed 002's size line after a prepare: the data set's
// data and index size on the server, in total and per table, next to the
// raw bytes generated with the compression ratio (left out when rawBytes
// <= 0, e.g. after a partial load). On MySQL the tables are analyzed first
// so that information_schema's sizes are current. SQLite prints nothing.
// Failures print a warning to errw, naming the proxy when a sharding proxy
// does not report sizes: the data set is loaded either way.
func PrintDataSize(ctx context.Context, out, errw io.Writer, conn *target.Connector, rawBytes int64) {
	if conn.Target().Kind == target.SQLite {
		return
	}
	admin, err := conn.Connect(ctx)
	if err != nil {
		fmt.Fprintf(errw, "warning: data set size: %v\n", err)
		return
	}
	defer admin.Close()
	size, err := ReadDBSize(ctx, admin)
	if err == nil && conn.Target().Kind == target.MySQL {
		for _, t := range size.Tables {
			_, _ = admin.Exec(ctx, "ANALYZE TABLE "+t.Name)
		}
		size, err = ReadDBSize(ctx, admin)
	}
	if err != nil {
		if proxy := target.ProxyName(admin.ServerVersion()); proxy != "" && target.IsServerError(err) {
			// ShardingSphere-Proxy 5.1 serves no information_schema.TABLES
			// (Error 1997); its SHOW TABLE STATUS has names only.
			// errors.Unwrap drops ReadDBSize's "database size:" context.
			fmt.Fprintf(errw, "warning: data set size: %s does not report table sizes (%v); measure them on its backends\n", proxy, errors.Unwrap(err))
			return
		}
		fmt.Fprintf(errw, "warning: data set size: %v\n", err)
		return
	}
	size.RawBytes = rawBytes
	fmt.Fprintf(out, "  %s\n", size.Line())
	parts := make([]string, 0, len(size.Tables))
	for _, t := range size.Tables {
		parts = append(parts, fmt.Sprintf("%s %s+%s", t.Name, results.HumanBytes(t.DataBytes), results.HumanBytes(t.IndexBytes)))
	}
	if len(parts) > 0 {
		fmt.Fprintf(out, "  tables (data+index): %s\n", strings.Join(parts, ", "))
	}
}

// ReadRawBytes returns the raw bytes a full TPC-C prepare recorded in
// benchpress_meta (0 when there is none, e.g. another workload).
func ReadRawBytes(ctx context.Context, admin target.Conn) int64 {
	rows, err := admin.Query(ctx, "SELECT meta_value FROM benchpress_meta WHERE meta_key = '"+RawBytesKey+"'")
	if err != nil {
		return 0
	}
	defer rows.Close()
	var v string
	if !rows.Next() || rows.Scan(&v) != nil {
		return 0
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	return n
}
