package workload

import "errors"

// Sentinel errors for data-set problems. Workloads wrap them with details
// (fmt.Errorf("%w: ...", ErrNotPrepared)); the CLI maps them to exit code 4.
var (
	// ErrNotPrepared: the workload's tables or metadata are missing
	// (run before prepare).
	ErrNotPrepared = errors.New("data set not prepared")
	// ErrScaleMismatch: the loaded data does not match the requested scale
	// (e.g. --warehouses 8 against 4 loaded warehouses).
	ErrScaleMismatch = errors.New("scale does not match the loaded data")
	// ErrSchemeMismatch: the table-name scheme does not match the loaded data.
	ErrSchemeMismatch = errors.New("table-name scheme does not match the loaded data")
	// ErrCheckFailed: a consistency check found violations (exit code 8, cli.ExitCheckFailed).
	ErrCheckFailed = errors.New("consistency check failed")
)
