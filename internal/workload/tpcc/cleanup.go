package tpcc

import (
	"context"

	"benchpress/internal/target"
)

// Cleanup drops the nine TPC-C tables of scheme n and the metadata table,
// those that exist; it is idempotent.
func Cleanup(ctx context.Context, conn target.Conn, n Names) error {
	return dropTables(ctx, conn, n)
}
