package cli

import (
	"context"
	"errors"

	"benchpress/internal/partition"
	"benchpress/internal/sweep"
	"benchpress/internal/target"
	"benchpress/internal/usage"
	"benchpress/internal/workload"
	"benchpress/internal/workload/tpcc"
)

// Exit codes scripts can rely on (documented in README.md "Exit codes").
const (
	ExitOK          = 0   // success
	ExitFailure     = 1   // anything not listed below (internal, SQL error during prepare...)
	ExitUsage       = 2   // bad flags, malformed target URL, unknown scheme, invalid numbers, bad plan
	ExitUnreachable = 3   // host/port unreachable, connection refused or timed out
	ExitAuth        = 4   // authentication failed (wrong user or password)
	ExitNoDatabase  = 5   // the database named in the URL does not exist
	ExitNotPrepared = 6   // tables/metadata missing: run prepare first
	ExitMismatch    = 7   // data set does not match (warehouse count, table-name scheme, tables exist)
	ExitCheckFailed = 8   // a consistency or response-time check failed
	ExitTooMany     = 9   // a server limit is too low for the run: connections, prepared statements
	ExitRunFailed   = 10  // verdict "failed": success below --min-success, nothing succeeded, stopped by a permission or server-limit error
	ExitDegraded    = 11  // verdict "degraded": outage, stalled terminals, failed reconnects, rate not achieved, interrupted step in a sweep
	ExitBarrier     = 12  // a partition never arrived at the start barrier (--partition, --processes)
	ExitInterrupted = 130 // stopped by SIGINT/SIGTERM; what was measured was still written
)

// UsageError marks bad input given by the user (exit code 2); workloads
// and targets return the same type from package usage.
type UsageError = usage.Error

// usagef returns a UsageError with a formatted message.
func usagef(format string, args ...any) error { return usage.Errorf(format, args...) }

// ErrInterrupted is returned after a run stopped by a signal wrote its results.
var ErrInterrupted = errors.New("interrupted")

// ExitCode maps an error returned by a command to the process exit code.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ue *UsageError
	var pe *sweep.PlanError
	var ce *target.ConnectError
	var ve *VerdictError
	var coded interface{ ExitCode() int }
	switch {
	case errors.As(err, &coded):
		return coded.ExitCode()
	case errors.Is(err, partition.ErrBarrierTimeout):
		return ExitBarrier
	case errors.Is(err, ErrInterrupted), errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.As(err, &ue), errors.As(err, &pe), errors.Is(err, target.ErrBadParams), errors.Is(err, sweep.ErrPlanChanged), errors.Is(err, sweep.ErrOutInUse):
		return ExitUsage
	case errors.As(err, &ve):
		if ve.Verdict == "failed" {
			return ExitRunFailed
		}
		return ExitDegraded
	case errors.Is(err, ErrStmtLimit):
		return ExitTooMany
	case errors.As(err, &ce):
		switch ce.Kind {
		case target.ConnectUnreachable:
			return ExitUnreachable
		case target.ConnectAuth:
			return ExitAuth
		case target.ConnectNoDatabase:
			return ExitNoDatabase
		case target.ConnectTooMany:
			return ExitTooMany
		case target.ConnectBadParams, target.ConnectWrongProtocol:
			return ExitUsage
		case target.ConnectOther:
			return ExitFailure
		}
		return ExitUnreachable
	case errors.As(err, new(*StartError)): // after ConnectError: a connection limit stays 9
		// The statement cap reached while the terminals prepared (another
		// client took statements after the plan) is a server limit too low
		// for the run, as the plan's own refusal (ErrStmtLimit) says.
		if target.IsStmtLimit(err) {
			return ExitTooMany
		}
		return ExitRunFailed
	case errors.Is(err, workload.ErrNotPrepared):
		return ExitNotPrepared
	case errors.Is(err, workload.ErrScaleMismatch), errors.Is(err, workload.ErrSchemeMismatch), errors.Is(err, tpcc.ErrTablesExist):
		return ExitMismatch
	case errors.Is(err, workload.ErrCheckFailed):
		return ExitCheckFailed
	}
	return ExitFailure
}

// joinUsage joins usage errors into one UsageError listing every problem.
func joinUsage(errs []error) error { return usage.Join(errs) }
