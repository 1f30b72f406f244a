package cli

import (
	"context"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/partition"
	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// partFlags are the scale-out flags every `run` command has: run this
// process as one partition of a run (--partition, with a barrier or an
// agreed instant), or run all partitions as local child processes
// (--processes).
type partFlags struct {
	fs             *pflag.FlagSet // the command's flags, replayed to child processes
	partition      string
	runID          string
	startAt        string
	barrierTimeout time.Duration
	processes      int
	cpuset         string
}

func (p *partFlags) register(fs *pflag.FlagSet) {
	p.fs = fs
	fs.StringVar(&p.partition, "partition", "", "run partition I/N of a run split over N driver processes (TPC-C: disjoint warehouse ranges; others: disjoint thread ranges); merge the results with benchpress merge")
	fs.StringVar(&p.runID, "run-id", "", "with --partition: the run's id, the same for every partition and new for every run (the barrier table's key; also seeds the run when --seed is 0)")
	fs.StringVar(&p.startAt, "start-at", "", "with --partition: start warm-up at this instant on the database server's clock (RFC 3339) instead of meeting at the barrier table")
	fs.DurationVar(&p.barrierTimeout, "barrier-timeout", 2*time.Minute, "with --partition: how long to wait for the other partitions at the barrier (exit code 10 when one never arrives)")
	fs.IntVar(&p.processes, "processes", 0, "run the run as N partitions in N local child processes, then merge them (one big load machine)")
	fs.StringVar(&p.cpuset, "cpuset", "", "with --processes: pin each child to a CPU list, lists separated by ':' (e.g. 0-3:4-7, as numactl/taskset -c)")
}

// partRun is a resolved partitioned run; nil means not partitioned.
type partRun struct {
	spec    partition.Spec
	runID   string
	startAt time.Time // agreed in advance (server clock); zero = barrier
	timeout time.Duration

	// Filled while the run is set up and started.
	terminals    int
	whFrom, whTo int
	skew         partition.Skew
	start        time.Time // agreed start, server clock
}

// resolve validates the flags; it returns nil when the run is not a
// partition. --processes is handled before (runLocal).
func (p *partFlags) resolve() (*partRun, error) {
	if p.partition == "" {
		if p.runID != "" || p.startAt != "" {
			return nil, usagef("--run-id and --start-at need --partition I/N")
		}
		if p.cpuset != "" && p.processes < 2 {
			return nil, usagef("--cpuset needs --processes N (N >= 2)")
		}
		if p.processes < 0 {
			return nil, usagef("--processes must be >= 0 (got %d)", p.processes)
		}
		return nil, nil
	}
	if p.processes > 0 {
		return nil, usagef("--partition and --processes exclude each other (--processes starts the partitions itself)")
	}
	s, err := partition.Parse(p.partition)
	if err != nil {
		return nil, &UsageError{Err: fmt.Errorf("--partition: %w", err)}
	}
	pr := &partRun{spec: s, runID: p.runID, timeout: p.barrierTimeout}
	if p.startAt != "" {
		t, err := time.Parse(time.RFC3339Nano, p.startAt)
		if err != nil {
			return nil, usagef("--start-at %q: want an RFC 3339 instant such as 2026-11-23T12:00:00Z", p.startAt)
		}
		pr.startAt = t
		if pr.runID == "" {
			pr.runID = "start-at-" + t.UTC().Format(time.RFC3339Nano)
		}
	}
	if pr.runID == "" {
		return nil, usagef("--partition needs --run-id ID (the same for every partition, new for every run) or --start-at")
	}
	if p.barrierTimeout <= 0 {
		return nil, usagef("--barrier-timeout must be > 0 (got %s)", p.barrierTimeout)
	}
	return pr, nil
}

// seed returns the run's seed: the given one, or for a partition one derived
// from the run id, so that every partition draws from the same run-wide
// seed (terminal streams differ by global terminal id, C-Run is shared).
func (pr *partRun) seed(given uint64) uint64 {
	if pr == nil || given != 0 {
		return given
	}
	h := fnv.New64a()
	h.Write([]byte(pr.runID))
	return h.Sum64() | 1
}

// tpcc restricts wl to this partition's warehouses: the terminals of a run
// of terminals over w warehouses whose home warehouse is in its range. It
// returns the workload and its terminal count.
func (pr *partRun) tpcc(wl workload.Workload, terminals, w int, bind func(id, w int) (int, int)) (workload.Workload, int, error) {
	if pr == nil {
		return wl, terminals, nil
	}
	if err := pr.spec.Validate(terminals, w); err != nil {
		return nil, 0, &UsageError{Err: err}
	}
	ids := pr.spec.TPCCTerminals(terminals, w, bind)
	pr.terminals = len(ids)
	pr.whFrom, pr.whTo = pr.spec.Warehouses(w)
	return partition.Wrap(wl, ids, terminals), len(ids), nil
}

// threads restricts wl to this partition's contiguous thread range and
// scales the run-wide rate and operation count to its share.
func (pr *partRun) threads(wl workload.Workload, cfg *runner.Config) (workload.Workload, error) {
	if pr == nil {
		return wl, nil
	}
	total := cfg.Terminals
	if err := pr.spec.Validate(total, 0); err != nil {
		return nil, &UsageError{Err: err}
	}
	lo, hi := pr.spec.Range(total)
	pr.terminals = hi - lo
	cfg.Terminals = hi - lo
	cfg.Rate = cfg.Rate * float64(hi-lo) / float64(total)
	if cfg.MaxOps > 0 {
		cfg.MaxOps = partition.Share(cfg.MaxOps, lo, hi, total)
		if cfg.MaxOps == 0 {
			return nil, usagef("partition %s: the operation count leaves this partition nothing to do", pr.spec)
		}
	}
	return partition.Wrap(wl, pr.spec.Threads(total), total), nil
}

// sync returns the runner's start hook: measure the clock skew against the
// server, then meet the other partitions at the barrier table (or take the
// instant agreed in advance).
func (pr *partRun) sync(conn *target.Connector) runner.SyncFunc {
	return func(ctx context.Context) (time.Time, error) {
		admin, err := conn.Connect(ctx)
		if err != nil {
			return time.Time{}, err
		}
		defer admin.Close()
		if pr.skew, err = partition.MeasureSkew(ctx, admin); err != nil {
			return time.Time{}, err
		}
		if !pr.startAt.IsZero() {
			local := pr.startAt.Add(-pr.skew.Offset)
			if time.Until(local) < 0 {
				return time.Time{}, fmt.Errorf("--start-at %s has passed on the server's clock (by %s)", pr.startAt.Format(time.RFC3339Nano), (-time.Until(local)).Round(time.Millisecond))
			}
			pr.start = pr.startAt
			return local, nil
		}
		b := partition.Barrier{RunID: pr.runID, Spec: pr.spec, Timeout: pr.timeout}
		local, err := b.Join(ctx, admin, pr.skew)
		if err != nil {
			return time.Time{}, err
		}
		pr.start = local.Add(pr.skew.Offset)
		return local, nil
	}
}

// annotate marks run as this partition, with its window on the server's
// clock and the workload's raw counters for an exact merge.
func (pr *partRun) annotate(run *results.Run, res *runner.Result, cfg *runner.Config, extraNames []string) {
	on := func(t time.Time) time.Time { return t.Add(pr.skew.Offset).UTC() }
	p := &results.Partition{
		Index: pr.spec.Index, Count: pr.spec.Count, RunID: pr.runID, Terminals: pr.terminals,
		WarehouseFrom: pr.whFrom, WarehouseTo: pr.whTo, Sync: "barrier", StartAt: pr.start.UTC(),
		ClockSkewMS: durMS(pr.skew.Offset), ClockRTTMS: durMS(pr.skew.RTT),
		WindowFrom: on(res.MeasureFrom), WindowTo: on(res.MeasureTo),
	}
	if !pr.startAt.IsZero() {
		p.Sync = "start_at"
	}
	if cfg.MaxOps > 0 {
		// Ended by the operation count unless the full duration ran.
		p.EndedByCount = cfg.Duration == 0 || res.MeasureTo.Sub(res.MeasureFrom) < cfg.Duration-100*time.Millisecond
	}
	if res.Cumulative != nil && len(extraNames) > 0 {
		p.ExtraNames = extraNames
		p.Extras = append([]int64(nil), res.Cumulative.Extra...)
	}
	run.Partition = p
}

func durMS(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }
