// Package registry is the one list of workloads benchpress knows, in the
// style of cockroachdb's pkg/workload: each workload family (tpcc, sysbench,
// ycsb) registers a Meta once, from its own package, declaring its commands,
// its run options (one typed struct bound to a pflag.FlagSet; the flag names
// are also the sweep plan keys), their validation, and its console output.
// The CLI builds `benchpress <family> <command>` and sweeps build their
// steps from this registry; nothing else lists workloads.
package registry

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"benchpress/internal/results"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// DefaultTarget is the embedded database every command uses when --target
// is not given.
const DefaultTarget = "sqlite://benchpress-data/benchpress.db"

// Env is what a workload command gets from the process edge.
type Env struct {
	Out    io.Writer // results, summaries
	Err    io.Writer // progress, warnings, live lines
	IsTTY  bool      // Err is a terminal
	Target target.Env
}

// Args says how many positional arguments a command takes.
type Args int

const (
	// ArgsNone (the default) rejects any positional argument with a usage error.
	ArgsNone Args = iota
	// ArgsChecked leaves the positional arguments to the command's action.
	ArgsChecked
	// ArgsAtMostOne accepts zero or one.
	ArgsAtMostOne
)

// Action runs a command once its flags are parsed.
type Action func(ctx context.Context, env *Env, args []string) error

// Command is one subcommand of a family other than run (prepare, load,
// check, cleanup).
type Command struct {
	Use, Short, Long, Example string
	Args                      Args
	// Bind declares the command's flags on fs and returns its action (which
	// may consult fs.Changed).
	Bind func(fs *pflag.FlagSet) Action
	// RunOnly names flags Bind declares that shape only the run: the
	// command accepts and ignores them, so that one command line serves
	// prepare, run and cleanup as it does with sysbench, and its --help
	// leaves them out. --socket-io (how a run's terminals wait) is left
	// out of every such command without being named here.
	RunOnly []string
}

// RunCommand describes a family's run subcommand; its options are the ones
// sweeps set.
type RunCommand struct {
	Use, Short, Long, Example string
	// Variant picks the variant (sysbench test, YCSB workload) from the
	// positional arguments; nil means the family takes none.
	Variant func(args []string) (string, error)
	// New returns a fresh option set holding the defaults.
	New func() RunOptions
}

// Variants are the variants of a family that has them (sysbench tests,
// YCSB workloads); a plan names one as "<family>/<variant>".
type Variants struct {
	Names []string
	// Hint names them in messages ("test", "a-f").
	Hint string
	// Check reports why a variant is not accepted (nil: accepted); nil
	// accepts Names only.
	Check func(variant string) error
}

// Meta is one registered workload family.
type Meta struct {
	// Name is the command name and the saved workload name's first part.
	Name        string
	Short, Long string
	// The commands: benchpress <family> prepare|run|check|cleanup (the
	// prepare command may be named otherwise, YCSB's is load).
	Prepare Command
	Run     RunCommand
	Check   *Command // nil: the family has no check
	Cleanup Command
	// Variants is nil when the family has none (plans say just Name).
	Variants *Variants
	// Summarizer rebuilds, from a saved result's configuration, the
	// workload's own figures (workload.Summarizer) and its counter names,
	// so that `benchpress merge` recomputes them from merged counts. Nil:
	// the family's figures merge generically.
	Summarizer func(r *results.Run) (workload.Summarizer, []string, error)
	// Extra are further commands of the family (tpcc shard-rules), listed
	// after cleanup.
	Extra []Command
}

// Commands returns the subcommands other than run: prepare, check (if
// any), cleanup, then the extra ones.
func (m *Meta) Commands() []Command {
	out := []Command{m.Prepare}
	if m.Check != nil {
		out = append(out, *m.Check)
	}
	out = append(out, m.Cleanup)
	return append(out, m.Extra...)
}

var families = map[string]*Meta{}

// Register adds a family; it panics on a duplicate name (a programming error
// found by any test).
func Register(m *Meta) {
	if _, dup := families[m.Name]; dup {
		panic("registry: workload " + m.Name + " registered twice")
	}
	families[m.Name] = m
}

// All returns the registered families sorted by name.
func All() []*Meta {
	out := make([]*Meta, 0, len(families))
	for _, m := range families {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup resolves a saved/plan workload name ("tpcc", "sysbench/<test>",
// "ycsb/<a-f|custom>") to its family and variant; the error says what is
// wrong in the words a plan author needs.
func Lookup(name string) (*Meta, string, error) {
	fam, variant, hasVariant := strings.Cut(name, "/")
	m, ok := families[fam]
	if !ok {
		return nil, "", fmt.Errorf("unknown workload %q (want %s)", name, wantList())
	}
	switch {
	case m.Variants == nil && hasVariant:
		return nil, "", fmt.Errorf("unknown workload %q (%s has no variants; say %s)", name, m.Name, m.Name)
	case m.Variants != nil && !hasVariant:
		return nil, "", fmt.Errorf("workload %q needs a %s: %s/<%s>", name, m.Variants.Hint, m.Name, m.Variants.Hint)
	}
	if hasVariant {
		if err := m.checkVariant(variant); err != nil {
			return nil, "", err
		}
	}
	return m, variant, nil
}

func (m *Meta) checkVariant(v string) error {
	if m.Variants.Check != nil {
		return m.Variants.Check(v)
	}
	for _, k := range m.Variants.Names {
		if k == v {
			return nil
		}
	}
	return fmt.Errorf("unknown %s %s %q (known: %s)", m.Name, m.Variants.Hint, v, strings.Join(m.Variants.Names, ", "))
}

// wantList renders "tpcc, sysbench/<test> or ycsb/<a-f>" from the registry.
func wantList() string {
	var parts []string
	for _, m := range All() {
		if m.Variants == nil {
			parts = append(parts, m.Name)
		} else {
			parts = append(parts, m.Name+"/<"+m.Variants.Hint+">")
		}
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}
