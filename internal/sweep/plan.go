package sweep

import (
	"sort"
	"time"

	"benchpress/internal/monitor"
	"benchpress/internal/registry"
	"benchpress/internal/results"
)

// DefaultLadder is the concurrency ladder of the seed reports, used when a
// plan names none.
var DefaultLadder = []int{1, 8, 16, 64, 128, 256, 512, 1000, 1024, 2048}

// Built-in defaults applied when neither the plan's defaults nor a case set them.
const (
	DefaultWarmup   = 30 * time.Second
	DefaultDuration = 2 * time.Minute
)

// Plan is a parsed, validated plan file: cases x concurrency ladder x targets.
type Plan struct {
	Name        string
	Description string
	// Targets by name. URLs keep ${ENV} references unexpanded; Resolve
	// expands them.
	Targets  map[string]TargetDef
	Defaults Settings
	Ladder   []int
	Cases    []Case
	Compare  []Comparison
	// Hosts are watched during every step besides the load machine.
	Hosts []monitor.HostSpec
	// Warnings are non-fatal findings (e.g. an inline password).
	Warnings []string
}

// TargetDef is one named target of a plan.
type TargetDef struct {
	Name string
	// URL as written; may contain ${VAR} references.
	URL string
	// PasswordEnv names an environment variable holding the password.
	PasswordEnv string
}

// Settings are the per-case knobs; a nil/zero field means "not set here".
type Settings struct {
	Workload       string
	Warmup         *time.Duration
	Duration       *time.Duration
	Cooldown       *time.Duration
	ReportInterval *time.Duration
	Ladder         []int
	// Options are workload options keyed by CLI flag name.
	Options map[string]string
	lines   map[string]int // key -> line, for problems found later
}

// line returns the line a key was set on (0 if unknown).
func (s Settings) line(key string) int { return s.lines[key] }

// Case is one test case: a target and overrides of the defaults.
type Case struct {
	ID          string
	Description string
	Target      string
	Overrides   Settings
	line        int                 // where the case starts
	config      registry.RunOptions // validated run options (nil until validated)
}

// Comparison is a named comparison between two cases: overhead is
// (base - other) / base, speed-up other / base.
type Comparison = results.Comparison

// ResolvedCase is a case with defaults and overrides merged.
type ResolvedCase struct {
	ID             string
	Description    string
	TargetName     string
	Workload       string
	Warmup         time.Duration
	Duration       time.Duration
	Cooldown       time.Duration
	ReportInterval time.Duration
	Ladder         []int
	Options        map[string]string
	// Config is the workload's typed run configuration, validated from
	// Options when the plan was parsed (nil if the plan was not).
	Config registry.RunOptions
}

// Resolve merges defaults and a case's overrides (case wins; options merge
// key by key).
func (p *Plan) Resolve(c Case) ResolvedCase {
	d, o := p.Defaults, c.Overrides
	rc := ResolvedCase{
		ID: c.ID, Description: c.Description, TargetName: c.Target, Config: c.config,
		Workload:       first(o.Workload, d.Workload),
		Warmup:         dur(o.Warmup, d.Warmup, DefaultWarmup),
		Duration:       dur(o.Duration, d.Duration, DefaultDuration),
		Cooldown:       dur(o.Cooldown, d.Cooldown, 0),
		ReportInterval: dur(o.ReportInterval, d.ReportInterval, 0),
		Options:        map[string]string{},
	}
	switch {
	case o.Ladder != nil:
		rc.Ladder = o.Ladder
	case d.Ladder != nil:
		rc.Ladder = d.Ladder
	case p.Ladder != nil:
		rc.Ladder = p.Ladder
	default:
		rc.Ladder = DefaultLadder
	}
	for k, v := range d.Options {
		if p.defaultApplies(rc.Workload, k) {
			rc.Options[k] = v
		}
	}
	for k, v := range o.Options {
		rc.Options[k] = v
	}
	return rc
}

// defaultApplies says whether the defaults option key reaches a case of
// workload: yes when the workload declares it, or when no case's workload
// does (a typo, reported at its line). A plan that mixes workloads keeps
// each family's defaults to that family's cases.
func (p *Plan) defaultApplies(workload, key string) bool {
	if registry.Declares(workload, key) {
		return true
	}
	for _, c := range p.Cases {
		w := c.Overrides.Workload
		if w == "" {
			w = p.Defaults.Workload
		}
		if registry.Declares(w, key) {
			return false
		}
	}
	return true
}

// ResolvedCases returns every case resolved, in plan order.
func (p *Plan) ResolvedCases() []ResolvedCase {
	out := make([]ResolvedCase, len(p.Cases))
	for i, c := range p.Cases {
		out[i] = p.Resolve(c)
	}
	return out
}

// LocalProcessCases returns the ids of the cases whose steps run as local
// child processes (processes: N), in plan order; cases not validated
// (no typed options) are left out.
func (p *Plan) LocalProcessCases() []string {
	var ids []string
	for _, rc := range p.ResolvedCases() {
		if rc.Config != nil && rc.Config.Partition().Processes > 0 {
			ids = append(ids, rc.ID)
		}
	}
	return ids
}

// TargetNames returns the target names, sorted.
func (p *Plan) TargetNames() []string {
	names := make([]string, 0, len(p.Targets))
	for n := range p.Targets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func dur(a, b *time.Duration, def time.Duration) time.Duration {
	if a != nil {
		return *a
	}
	if b != nil {
		return *b
	}
	return def
}
