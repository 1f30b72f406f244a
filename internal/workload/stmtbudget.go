package workload

import (
	"context"
	"errors"
	"fmt"

	"benchpress/internal/results"
	"benchpress/internal/target"
)

// stmtBudgeter is implemented by workloads that can run part of their
// statements as text to fit a per-session prepared-statement budget.
type stmtBudgeter interface {
	StatementKinds() int
	SetStatementBudget(perSession int) int
}

// preparedPerSession is implemented by workloads that prepare a fixed
// number of statements per session and cannot run part of them as text.
type preparedPerSession interface {
	PreparedPerSession() int
}

// ErrStmtLimit: the run would exceed the server's prepared-statement cap.
var ErrStmtLimit = errors.New("not enough prepared statements left on the server")

// PlanPreparedStatements fits the run into a MySQL server's
// max_prepared_stmt_count (shared by every session of the instance) before
// any terminal connects: each session may hold (limit − in use − reserve) /
// terminals statements. A workload that can run statements as text gets
// that budget (its most frequent statements are prepared, the rest run as
// text); one that cannot is refused with the remedy instead of failing
// mid-run. Nothing to do in text mode or on PostgreSQL and SQLite.
func PlanPreparedStatements(ctx context.Context, wl Workload, conn *target.Connector, terminals int) (*results.PreparedStmts, error) {
	if conn.Target().Kind != target.MySQL || conn.Options().StatementMode != target.Prepared {
		return nil, nil
	}
	admin, err := conn.Connect(ctx)
	if err != nil {
		return nil, err
	}
	lim, ok := target.ReadPreparedStmtLimit(ctx, admin)
	admin.Close()
	if !ok {
		return nil, nil
	}
	terms := max(1, terminals)
	reserve := max(16, lim.Max/100) // admin sessions, other clients
	per := int(max(0, lim.Free()-reserve) / int64(terms))
	plan := &results.PreparedStmts{ServerLimit: lim.Max, InUseBefore: lim.InUse, Terminals: terms, PerSession: per}
	switch wl := wl.(type) {
	case stmtBudgeter:
		plan.Kinds = wl.StatementKinds()
		plan.Prepared = wl.SetStatementBudget(per)
	case preparedPerSession:
		plan.Kinds = wl.PreparedPerSession()
		plan.Prepared = plan.Kinds
		if need := int64(plan.Kinds) * int64(terms); need > lim.Free()-reserve {
			return nil, fmt.Errorf("%w: %d sessions x %d prepared statements = %d, but max_prepared_stmt_count is %d with %d in use; %s",
				ErrStmtLimit, terms, plan.Kinds, need, lim.Max, lim.InUse,
				"raise it (SET GLOBAL max_prepared_stmt_count = ...), run fewer threads, or use --statement-mode text")
		}
	default:
		return nil, nil
	}
	return plan, nil
}
