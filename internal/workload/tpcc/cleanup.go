package tpcc

import (
	"context"
	"fmt"

	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// Cleanup drops the nine TPC-C tables of scheme n and the metadata table,
// those that exist; it is idempotent. It refuses (ErrSchemeMismatch) when
// the metadata says the data set was loaded under another scheme: the
// schemes share the metadata table, and standard and tpcc-mysql eight of
// their nine table names, so the drop would destroy that data set.
func Cleanup(ctx context.Context, conn target.Conn, n Names) error {
	if kv, err := readMetaMap(ctx, conn, n); err == nil && kv[keyScheme] != "" && kv[keyScheme] != n.Scheme {
		return fmt.Errorf("%w: the data set here was loaded with --names %s; cleanup --names %s would drop it (use --names %s to drop it)",
			workload.ErrSchemeMismatch, kv[keyScheme], n.Scheme, kv[keyScheme])
	}
	return dropTables(ctx, conn, n)
}
