package partition

import (
	"context"
	"fmt"
	"time"

	"benchpress/internal/results"
	"benchpress/internal/runner"
	"benchpress/internal/target"
	"benchpress/internal/usage"
	"benchpress/internal/workload"
)

// Splitter is implemented by workloads that split by something other than
// contiguous thread ranges (TPC-C: by home warehouse). It returns the
// global terminal ids partition s runs of a run of terminals, and its home
// warehouse range (0, 0 when not by warehouse).
type Splitter interface {
	Split(s Spec, terminals int) (ids []int, whFrom, whTo int, err error)
}

// Checker is implemented by workloads that cannot always be partitioned
// (YCSB with inserts); Partitionable says why not.
type Checker interface {
	Partitionable() error
}

// Plan is this process's partition of a run, resolved from Flags; it
// carries what the run measured about its start for the saved record.
type Plan struct {
	Spec    Spec
	RunID   string
	StartAt time.Time // agreed in advance (server clock); zero = barrier
	Timeout time.Duration

	terminals    int // this partition's share
	total        int // the whole run's terminals
	whFrom, whTo int
	skew         Skew
	start        time.Time // agreed start, server clock
}

// Apply restricts wl to this partition: its share of the run's
// cfg.Terminals terminals (Splitter, or a contiguous thread range), with
// the run-wide rate and operation count scaled to that share. cfg is
// changed in place; the run's configuration as saved stays the whole run's.
func (p *Plan) Apply(wl workload.Workload, cfg *runner.Config) (workload.Workload, error) {
	if c, ok := wl.(Checker); ok {
		if err := c.Partitionable(); err != nil {
			return nil, &usage.Error{Err: fmt.Errorf("partition %s: %w", p.Spec, err)}
		}
	}
	total := cfg.Terminals
	var ids []int
	if sp, ok := wl.(Splitter); ok {
		var err error
		if ids, p.whFrom, p.whTo, err = sp.Split(p.Spec, total); err != nil {
			return nil, &usage.Error{Err: err}
		}
	} else {
		if err := p.Spec.Validate(total, 0); err != nil {
			return nil, &usage.Error{Err: err}
		}
		lo, hi := p.Spec.Range(total)
		ids = p.Spec.Threads(total)
		if cfg.MaxOps > 0 {
			if cfg.MaxOps = Share(cfg.MaxOps, lo, hi, total); cfg.MaxOps == 0 {
				return nil, usage.Errorf("partition %s: the operation count leaves this partition nothing to do", p.Spec)
			}
		}
	}
	p.terminals, p.total = len(ids), total
	cfg.Rate = cfg.Rate * float64(len(ids)) / float64(total)
	cfg.Terminals = len(ids)
	return Wrap(wl, ids, total), nil
}

// RunTerminals is the whole run's terminals, of which Apply gave this
// partition its share (0 before Apply): what the server's shared limits
// (connections, prepared statements) must hold once every partition is in.
func (p *Plan) RunTerminals() int { return p.total }

// Sync returns the runner's start hook: measure the clock skew against the
// server, then meet the other partitions at the barrier table (or take the
// instant agreed in advance).
func (p *Plan) Sync(conn *target.Connector) runner.SyncFunc {
	return func(ctx context.Context) (time.Time, error) {
		admin, err := conn.Connect(ctx)
		if err != nil {
			return time.Time{}, err
		}
		defer admin.Close()
		if p.skew, err = MeasureSkew(ctx, admin); err != nil {
			return time.Time{}, err
		}
		if !p.StartAt.IsZero() {
			local := p.StartAt.Add(-p.skew.Offset)
			if late := -time.Until(local); late > 0 {
				return time.Time{}, fmt.Errorf("--start-at %s has passed on the server's clock (by %s)", p.StartAt.Format(time.RFC3339Nano), late.Round(time.Millisecond))
			}
			p.start = p.StartAt
			return local, nil
		}
		b := Barrier{RunID: p.RunID, Spec: p.Spec, Timeout: p.Timeout}
		local, err := b.Join(ctx, admin, p.skew)
		if err != nil {
			return time.Time{}, err
		}
		p.start = local.Add(p.skew.Offset)
		return local, nil
	}
}

// Annotate marks run as this partition: its share, the agreed start and
// window on the server's clock, the clock skew, and the workload's raw
// counters (extraNames order) for an exact merge.
func (p *Plan) Annotate(run *results.Run, res *runner.Result, cfg *runner.Config, extraNames []string) {
	on := func(t time.Time) time.Time { return t.Add(p.skew.Offset).UTC() }
	r := &results.Partition{
		Index: p.Spec.Index, Count: p.Spec.Count, RunID: p.RunID, Terminals: p.terminals,
		WarehouseFrom: p.whFrom, WarehouseTo: p.whTo, Sync: "barrier", StartAt: p.start.UTC(),
		ClockSkewMS: ms(p.skew.Offset), ClockRTTMS: ms(p.skew.RTT),
		WindowFrom: on(res.MeasureFrom), WindowTo: on(res.MeasureTo),
	}
	if !p.StartAt.IsZero() {
		r.Sync = "start_at"
	}
	if cfg.MaxOps > 0 {
		// Ended by the operation count unless the full duration ran.
		r.EndedByCount = cfg.Duration == 0 || res.MeasureTo.Sub(res.MeasureFrom) < cfg.Duration-100*time.Millisecond
	}
	if res.Cumulative != nil && len(extraNames) > 0 {
		r.ExtraNames = extraNames
		r.Extras = append([]int64(nil), res.Cumulative.Extra...)
	}
	run.Partition = r
}

func ms(d time.Duration) float64 {
	return float64(d.Round(time.Microsecond)) / float64(time.Millisecond)
}
