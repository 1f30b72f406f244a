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

// unwrapper is a workload that runs another's terminals (a partition's
// share of a run): the statements are the inner workload's.
type unwrapper interface {
	Unwrap() Workload
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
//
// whole is the terminals of the whole run when this process runs one
// partition of it (--partition, --processes; 0 otherwise). The partitions
// plan at about the same moment, each before any of them prepared, so the
// statements in use tell nothing of the others: every partition also
// fits the whole run into the limit less the reserve, which gives each the
// same budget, and refuses (in every partition, with the whole run's
// arithmetic) a run that cannot fit however the partitions start.
func PlanPreparedStatements(ctx context.Context, wl Workload, conn *target.Connector, terminals, whole int) (*results.PreparedStmts, error) {
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
	for {
		u, ok := wl.(unwrapper)
		if !ok {
			break
		}
		wl = u.Unwrap()
	}
	b := newStmtBudget(lim, terminals, whole)
	plan := &results.PreparedStmts{ServerLimit: lim.Max, InUseBefore: lim.InUse, Terminals: b.terms, PerSession: b.per}
	if b.whole > b.terms {
		plan.RunTerminals = b.whole
	}
	switch wl := wl.(type) {
	case stmtBudgeter:
		plan.Kinds = wl.StatementKinds()
		plan.Prepared = wl.SetStatementBudget(b.per)
	case preparedPerSession:
		plan.Kinds = wl.PreparedPerSession()
		plan.Prepared = plan.Kinds
		if err := b.fits(plan.Kinds); err != nil {
			return nil, err
		}
	default:
		return nil, nil
	}
	return plan, nil
}

// stmtBudget is the arithmetic of PlanPreparedStatements.
type stmtBudget struct {
	lim          target.PreparedStmtLimit
	terms, whole int   // this process's sessions; the whole run's (>= terms)
	reserve      int64 // left for admin sessions and other clients
	per          int   // statements each session may prepare
}

// newStmtBudget gives each of terminals sessions (of a whole run of
// whole; 0 when not a partition) an equal share of what lim leaves free
// less the reserve, and a partition at most its share of the limit less
// the reserve over the whole run's sessions.
func newStmtBudget(lim target.PreparedStmtLimit, terminals, whole int) stmtBudget {
	b := stmtBudget{lim: lim, terms: max(1, terminals), reserve: max(16, lim.Max/100)}
	b.whole = max(b.terms, whole)
	b.per = int(max(0, lim.Free()-b.reserve) / int64(b.terms))
	if b.whole > b.terms {
		b.per = min(b.per, int(max(0, lim.Max-b.reserve)/int64(b.whole)))
	}
	return b
}

// fits refuses kinds statements in every session when they exceed what
// is free now for this process's sessions, or the limit for the whole
// run's.
func (b stmtBudget) fits(kinds int) error {
	const remedy = "raise it (SET GLOBAL max_prepared_stmt_count = ...), run fewer threads, or use --statement-mode text"
	if need := int64(kinds) * int64(b.terms); need > b.lim.Free()-b.reserve {
		return fmt.Errorf("%w: %d sessions x %d prepared statements = %d, but max_prepared_stmt_count is %d with %d in use; %s",
			ErrStmtLimit, b.terms, kinds, need, b.lim.Max, b.lim.InUse, remedy)
	}
	if need := int64(kinds) * int64(b.whole); b.whole > b.terms && need > b.lim.Max-b.reserve {
		return fmt.Errorf("%w: the whole run's %d sessions (all partitions) x %d prepared statements = %d, but max_prepared_stmt_count is %d; %s",
			ErrStmtLimit, b.whole, kinds, need, b.lim.Max, remedy)
	}
	return nil
}
