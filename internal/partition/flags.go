package partition

import (
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/usage"
)

// Flags are the scale-out options every `run` command (and every sweep
// case) has: run as one partition of a run (--partition, meeting the others
// at the barrier or at an agreed instant), or run all partitions as local
// child processes (--processes).
type Flags struct {
	Partition      string
	RunID          string
	StartAt        string
	BarrierTimeout time.Duration
	Processes      int
	CPUSet         string
}

// Register declares the flags on fs.
func (f *Flags) Register(fs *pflag.FlagSet) {
	fs.StringVar(&f.Partition, "partition", "", "run partition I/N of a run split over N driver processes (TPC-C: disjoint warehouse ranges; others: disjoint thread ranges); merge the results with benchpress merge")
	fs.StringVar(&f.RunID, "run-id", "", "with --partition: the run's id, the same for every partition and new for every run (the barrier table's key; TPC-C derives its seed from it when --seed is 0)")
	fs.StringVar(&f.StartAt, "start-at", "", "with --partition: start warm-up at this instant on the database server's clock (RFC 3339) instead of meeting at the barrier table")
	fs.DurationVar(&f.BarrierTimeout, "barrier-timeout", 2*time.Minute, "with --partition: how long to wait for the other partitions at the barrier (exit code 12 when one never arrives)")
	fs.IntVar(&f.Processes, "processes", 0, "run as N partitions in N local child processes of this binary, then merge them (one big load machine; not with --metrics-addr: the run happens in the children)")
	fs.StringVar(&f.CPUSet, "cpuset", "", "with --processes: pin each child to a CPU list, lists separated by ':' (e.g. 0-3:4-7, as numactl/taskset -c)")
}

// Resolve validates the flags and returns the plan of this process's
// partition, or nil when it is not one (also with --processes: the parent
// starts the partitions). Problems are usage errors.
func (f *Flags) Resolve() (*Plan, error) {
	if f.Processes < 0 || f.Processes == 1 {
		return nil, usage.Errorf("--processes must be >= 2 (got %d)", f.Processes)
	}
	if f.Partition == "" {
		switch {
		case f.RunID != "" || f.StartAt != "":
			return nil, usage.Errorf("--run-id and --start-at need --partition I/N")
		case f.CPUSet != "" && f.Processes == 0:
			return nil, usage.Errorf("--cpuset needs --processes N")
		}
		return nil, nil
	}
	if f.Processes > 0 {
		return nil, usage.Errorf("--partition and --processes exclude each other (--processes starts the partitions itself)")
	}
	s, err := Parse(f.Partition)
	if err != nil {
		return nil, &usage.Error{Err: fmt.Errorf("--partition: %w", err)}
	}
	p := &Plan{Spec: s, RunID: f.RunID, Timeout: f.BarrierTimeout}
	if f.StartAt != "" {
		t, err := time.Parse(time.RFC3339Nano, f.StartAt)
		if err != nil {
			return nil, usage.Errorf("--start-at %q: want an RFC 3339 instant such as 2026-11-23T12:00:00Z", f.StartAt)
		}
		p.StartAt = t
		if p.RunID == "" {
			p.RunID = "start-at-" + t.UTC().Format(time.RFC3339Nano)
		}
	}
	if p.RunID == "" {
		return nil, usage.Errorf("--partition needs --run-id ID (the same for every partition, new for every run) or --start-at")
	}
	if f.BarrierTimeout <= 0 {
		return nil, usage.Errorf("--barrier-timeout must be > 0 (got %s)", f.BarrierTimeout)
	}
	return p, nil
}

// Seed returns the run's seed: given, or for a partition (given 0) one
// derived from the run id, so that every partition draws from the same
// run-wide seed (terminal streams differ by global terminal id; TPC-C's
// C-Run is shared).
func (f *Flags) Seed(given uint64) uint64 {
	if given != 0 || f.Partition == "" {
		return given
	}
	id := f.RunID
	if id == "" {
		id = f.StartAt
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64() | 1
}

// ForStep makes a plan's run id unique per sweep step (the barrier accepts
// a run id once): ID-<case>-<concurrency>. Every machine running its copy
// of the plan derives the same ids. A step with start-at is refused
// (CheckStep).
func (f *Flags) ForStep(caseID string, concurrency int) error {
	if err := f.CheckStep(); err != nil {
		return err
	}
	if f.Partition != "" && f.RunID != "" {
		f.RunID = fmt.Sprintf("%s-%s-%d", f.RunID, caseID, concurrency)
	}
	return nil
}

// CheckStep refuses what a sweep step cannot have, as a *usage.Error:
// start-at, one instant that every step of the plan would get (all but
// the first would find it passed). Partitioned steps meet at the barrier,
// each under its own run id (ForStep).
func (f *Flags) CheckStep() error {
	if f.StartAt != "" {
		return usage.Errorf("start-at cannot be used in a plan: every step would get the same instant and all but the first would find it passed; partitioned steps meet at the barrier, give run-id (the same on every machine) instead")
	}
	return nil
}

// ErrAfterRun refuses an after-run step (TPC-C --check) in a partition: it
// would run while the other partitions still do.
var ErrAfterRun = errors.New("--check with --partition would check while other partitions still run; run the check after all partitions ended (--processes checks after the merge)")
