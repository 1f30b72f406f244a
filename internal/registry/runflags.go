package registry

import (
	"benchpress/internal/runner"
	"benchpress/internal/usage"

	"github.com/spf13/pflag"
)

// runFlagNames are a family's spellings of the shared runner settings.
type runFlagNames struct{ Conc, Duration, Warmup string }

// namesIn finds the spellings fs declares: --terminals or --threads,
// --time (sysbench, YCSB) before its alias --duration, --warmup-time
// (sysbench) before its alias --warmup.
func namesIn(fs *pflag.FlagSet) runFlagNames {
	pick := func(a, b string) string {
		if fs.Lookup(a) != nil {
			return "--" + a
		}
		return "--" + b
	}
	return runFlagNames{Conc: pick("terminals", "threads"), Duration: pick("time", "duration"), Warmup: pick("warmup-time", "warmup")}
}

// RunnerProblems checks the runner settings every run command shares and
// names each problem with the flag names fs declares. durationRequired
// says a zero duration is an error (no operation count can end the run).
func RunnerProblems(c runner.Config, fs *pflag.FlagSet, durationRequired bool) []error {
	n := namesIn(fs)
	var errs []error
	if err := AtLeastOne(n.Conc, c.Terminals); err != nil {
		errs = append(errs, err)
	}
	if durationRequired && c.Duration <= 0 {
		errs = append(errs, usage.Errorf("%s must be > 0 (got %s)", n.Duration, c.Duration))
	} else if c.Duration < 0 {
		errs = append(errs, usage.Errorf("%s must not be negative (got %s)", n.Duration, c.Duration))
	}
	if c.Warmup < 0 {
		errs = append(errs, usage.Errorf("%s must not be negative (got %s)", n.Warmup, c.Warmup))
	}
	if c.ReportInterval < 0 {
		errs = append(errs, usage.Errorf("--report-interval must not be negative (got %s)", c.ReportInterval))
	}
	if c.Rate < 0 {
		errs = append(errs, usage.Errorf("--rate must not be negative (got %g)", c.Rate))
	}
	if c.MaxRetries < 0 {
		errs = append(errs, usage.Errorf("--max-retries must not be negative (got %d)", c.MaxRetries))
	}
	return errs
}

// IsoOrDefault renders an isolation option for the saved config.
func IsoOrDefault(s string) string {
	if s == "" {
		return "server default"
	}
	return s
}

// AtLeastOne is the usage error of a count flag below 1 (nil when n >= 1).
func AtLeastOne(flag string, n int) error {
	if n < 1 {
		return usage.Errorf("%s must be >= 1 (got %d)", flag, n)
	}
	return nil
}
