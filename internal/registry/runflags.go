package registry

import (
	"benchpress/internal/runner"
	"benchpress/internal/usage"
)

// RunFlagNames are the CLI names of the shared runner settings in one
// family (TPC-C says terminals/duration/warmup, sysbench and YCSB say
// threads/time/warmup-time).
type RunFlagNames struct{ Conc, Duration, Warmup string }

// RunnerProblems checks the runner settings every run command shares and
// names each problem with the family's flag names. durationRequired says a
// zero duration is an error (no operation count can end the run).
func RunnerProblems(c runner.Config, n RunFlagNames, durationRequired bool) []error {
	var errs []error
	if c.Terminals < 1 {
		errs = append(errs, usage.Errorf("%s must be >= 1 (got %d)", n.Conc, c.Terminals))
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
