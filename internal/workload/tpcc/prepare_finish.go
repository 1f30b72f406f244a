package tpcc

import (
	"context"
	"fmt"
	"sync"

	"benchpress/internal/load"
	"benchpress/internal/target"
)

// analyzeSampleTarget is the PostgreSQL statistics target used for the
// post-load ANALYZE: a 3,000-row sample instead of 30,000. TPC-C's data is
// uniform and every query is a key or index lookup, so coarse statistics
// lose nothing, and ANALYZE of freshly loaded tables gets ~10x cheaper.
const analyzeSampleTarget = 10

// postLoadJob is one piece of the work after the rows are in: an index build
// or one table's ANALYZE, each in its own transaction on any session.
type postLoadJob struct {
	what  string
	stmts []string // run in order inside BEGIN ... COMMIT
}

// postLoad creates the missing secondary indexes and refreshes optimizer
// statistics, spreading the jobs over up to threads sessions. It reports
// whether it created any index (foreign keys are added only then).
func postLoad(ctx context.Context, d load.Dialer, conn target.Conn, n Names, threads int) (bool, error) {
	ddls, err := missingIndexes(ctx, conn, n)
	if err != nil {
		return false, err
	}
	kind := conn.Kind()
	var jobs []postLoadJob
	for _, ddl := range ddls {
		j := postLoadJob{what: "create index", stmts: []string{ddl}}
		if kind == target.Postgres {
			j.stmts = []string{"SET LOCAL maintenance_work_mem = '256MB'", ddl}
		}
		jobs = append(jobs, j)
	}
	if kind != target.SQLite {
		// Largest tables first so the pool finishes together.
		for _, t := range []string{n.Stock, n.OrderLine, n.Customer, n.History, n.Orders, n.NewOrder, n.Item, n.District, n.Warehouse} {
			j := postLoadJob{what: "analyze " + t, stmts: []string{"ANALYZE TABLE " + t}}
			if kind == target.Postgres {
				j.stmts = []string{fmt.Sprintf("SET LOCAL default_statistics_target = %d", analyzeSampleTarget), "ANALYZE " + t}
			}
			jobs = append(jobs, j)
		}
	}
	if kind == target.SQLite {
		threads = 1 // one writer
	}
	return len(ddls) > 0, runPostLoad(ctx, d, conn, jobs, min(max(threads, 1), len(jobs)))
}

// runPostLoad runs jobs on conn plus threads-1 extra sessions. Index builds
// fail the prepare; a failed ANALYZE only costs plan quality and is ignored.
func runPostLoad(ctx context.Context, d load.Dialer, conn target.Conn, jobs []postLoadJob, threads int) error {
	work := make(chan postLoadJob)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	worker := func(c target.Conn) {
		defer wg.Done()
		for j := range work {
			if err := runJob(ctx, c, j); err != nil && j.what == "create index" && !target.IsDuplicateIndex(err) {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}
	}
	wg.Add(1)
	go worker(conn)
	for i := 1; i < threads; i++ {
		c, err := d.Connect(ctx)
		if err != nil {
			break // fewer sessions is fine
		}
		defer c.Close()
		wg.Add(1)
		go worker(c)
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
	return firstErr
}

func runJob(ctx context.Context, c target.Conn, j postLoadJob) error {
	wrap := len(j.stmts) > 1
	if wrap {
		if err := c.Begin(ctx, true); err != nil {
			return fmt.Errorf("%s: %w", j.what, err)
		}
	}
	for _, q := range j.stmts {
		if _, err := c.Exec(ctx, q); err != nil {
			if wrap {
				_ = c.Rollback(ctx)
			}
			return fmt.Errorf("%s: %s: %w", j.what, q, err)
		}
	}
	if wrap {
		if err := c.Commit(ctx); err != nil {
			return fmt.Errorf("%s: %w", j.what, err)
		}
	}
	return nil
}
