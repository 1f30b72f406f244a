package registry

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/target"
)

// KeyError is a problem with one option key of a sweep case; Key is ""
// for a problem of the case as a whole.
type KeyError struct {
	Key string
	Err error
}

// owned are run flags a plan cannot set as options, with what to use instead.
var owned = map[string]string{
	"target":       "set the case's target (targets: in the plan)",
	"password-env": "set password_env on the target",
	"json":         "the sweep saves every step itself",
	"terminals":    "the ladder sets the concurrency",
	"threads":      "the ladder sets the concurrency",
	// The step's timing is the plan's own keys (set after the options:
	// these would be silently overwritten).
	"time":            "use the plan's duration key",
	"warmup-time":     "use the plan's warmup key",
	"report-interval": "use the plan's report_interval key",
}

// StepSettings are the settings a sweep fixes for every step of a case.
type StepSettings struct {
	Concurrency      int
	Warmup, Duration time.Duration
}

// Configure builds the typed, validated run options of workload name from
// a sweep case's options (plan keys are the run command's flag names;
// underscores and dashes are interchangeable; a list or mapping arrives
// joined with "," and sets a repeatable flag once per element). It
// returns every problem, each tied to its key where there is one; the
// options are usable only when there is none. The checks are the run
// command's own, so a plan that passes here fails at run time only for
// reasons that need the database.
func Configure(name string, options map[string]string, st StepSettings) (RunOptions, []KeyError) {
	m, variant, err := Lookup(name)
	if err != nil {
		return nil, []KeyError{{Err: err}}
	}
	opts := m.Run.New()
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetNormalizeFunc(UnderscoreToDash)
	opts.Flags(fs)
	var errs []KeyError
	keys := make([]string, 0, len(options))
	for k := range options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := setOption(fs, m.Name, k, options[k]); err != nil {
			errs = append(errs, KeyError{Key: k, Err: err})
		}
	}
	conc := "terminals"
	if fs.Lookup(conc) == nil {
		conc = "threads"
	}
	for _, kv := range [][2]string{{conc, fmt.Sprint(st.Concurrency)}, {"warmup", st.Warmup.String()},
		{"duration", st.Duration.String()}, {"report-interval", "0"}} {
		if fs.Lookup(kv[0]) == nil {
			continue
		}
		if err := fs.Set(kv[0], kv[1]); err != nil {
			errs = append(errs, KeyError{Err: fmt.Errorf("%s: %v", kv[0], err)})
		}
	}
	for _, err := range opts.Resolve(variant, fs) {
		errs = append(errs, KeyError{Key: keyOf(fs, keys, err), Err: err})
	}
	if err := opts.Target().Check(target.Env{}); err != nil {
		errs = append(errs, KeyError{Key: keyOf(fs, keys, err), Err: err})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return opts, nil
}

// setOption sets one plan key on fs.
func setOption(fs *pflag.FlagSet, family, key, value string) error {
	norm := strings.ReplaceAll(key, "_", "-")
	if why, ok := owned[norm]; ok {
		return fmt.Errorf("option %q cannot be set in a plan: %s", key, why)
	}
	f := fs.Lookup(norm)
	if f == nil {
		return fmt.Errorf("unknown %s option %q (see `benchpress %s run --help`)", family, key, family)
	}
	for _, v := range SplitList(f, value) {
		if err := fs.Set(norm, v); err != nil {
			return fmt.Errorf("option %s=%q: %v", key, v, err)
		}
	}
	return nil
}

var (
	declMu   sync.Mutex
	declared = map[string]map[string]bool{} // family -> normalized run flag names
)

// Declares reports whether workload's run command declares the option key
// (underscores and dashes alike); false for an unknown workload.
func Declares(workload, key string) bool {
	m, _, err := Lookup(workload)
	if err != nil {
		return false
	}
	declMu.Lock()
	defer declMu.Unlock()
	names, ok := declared[m.Name]
	if !ok {
		names = map[string]bool{}
		fs := pflag.NewFlagSet(m.Name, pflag.ContinueOnError)
		m.Run.New().Flags(fs)
		fs.VisitAll(func(f *pflag.Flag) { names[f.Name] = true })
		declared[m.Name] = names
	}
	return names[strings.ReplaceAll(key, "_", "-")]
}

// keyOf finds the plan key a validation error is about: the one whose flag
// the message names (--mix, -p ...); "" when none does.
func keyOf(fs *pflag.FlagSet, keys []string, err error) string {
	msg := err.Error()
	for _, k := range keys {
		f := fs.Lookup(strings.ReplaceAll(k, "_", "-"))
		if f == nil {
			continue
		}
		if strings.Contains(msg, "--"+f.Name) || f.Shorthand != "" && strings.HasPrefix(msg, "-"+f.Shorthand+" ") {
			return k
		}
	}
	return ""
}
