package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"benchpress/internal/monitor"
	"benchpress/internal/results"
	"benchpress/internal/target"
)

// rawBytesKey is the benchpress_meta key holding the raw bytes a full
// prepare generated, so that later runs can state the compression ratio.
const rawBytesKey = "raw_bytes"

// printDataSize prints seed 002's size line after a prepare: the data set's
// data and index size on the server per table and in total, the raw bytes
// generated and the compression ratio (left out when rawBytes <= 0, e.g.
// after a partial load). On MySQL the tables are analyzed first so that
// information_schema's sizes are current. With record, the raw bytes are
// kept in benchpress_meta (TPC-C's metadata table) for the runs' results.
// Failures only print a warning: the data set is loaded either way.
func printDataSize(ctx context.Context, app *App, conn *target.Connector, rawBytes int64, record bool) {
	if conn.Target().Kind == target.SQLite {
		return
	}
	admin, err := conn.Connect(ctx)
	if err != nil {
		fmt.Fprintf(app.Err, "warning: data set size: %v\n", err)
		return
	}
	defer admin.Close()
	size, err := monitor.ReadDBSize(ctx, admin)
	if err == nil && conn.Target().Kind == target.MySQL {
		for _, t := range size.Tables {
			_, _ = admin.Exec(ctx, "ANALYZE TABLE "+t.Name)
		}
		size, err = monitor.ReadDBSize(ctx, admin)
	}
	if err != nil {
		fmt.Fprintf(app.Err, "warning: data set size: %v\n", err)
		return
	}
	if record && rawBytes > 0 {
		if _, err := admin.Exec(ctx, "DELETE FROM benchpress_meta WHERE meta_key = ?", rawBytesKey); err == nil {
			_, _ = admin.Exec(ctx, "INSERT INTO benchpress_meta (meta_key, meta_value) VALUES (?, ?)", rawBytesKey, strconv.FormatInt(rawBytes, 10))
		}
	}
	size.RawBytes = rawBytes
	fmt.Fprintf(app.Out, "  %s\n", monitor.SizeLine(size))
	parts := make([]string, 0, len(size.Tables))
	for _, t := range size.Tables {
		parts = append(parts, fmt.Sprintf("%s %s+%s", t.Name, monitor.Bytes(t.DataBytes), monitor.Bytes(t.IndexBytes)))
	}
	if len(parts) > 0 {
		fmt.Fprintf(app.Out, "  tables (data+index): %s\n", strings.Join(parts, ", "))
	}
}

// readRawBytes returns the raw bytes a full prepare recorded (0 if none).
func readRawBytes(ctx context.Context, admin target.Conn) int64 {
	v, ok := queryString(ctx, admin, "SELECT meta_value FROM benchpress_meta WHERE meta_key = '"+rawBytesKey+"'")
	if !ok {
		return 0
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	return n
}

// withRaw sets the recorded raw bytes on a size read during a run.
func withRaw(ctx context.Context, admin target.Conn, s *results.DBSize) *results.DBSize {
	if s != nil {
		s.RawBytes = readRawBytes(ctx, admin)
	}
	return s
}
