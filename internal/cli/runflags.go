package cli

import "benchpress/internal/runner"

// runFlagNames are the CLI names of the shared runner settings in one
// command family (TPC-C says terminals/duration/warmup, sysbench and YCSB
// say threads/time/warmup-time).
type runFlagNames struct{ conc, duration, warmup string }

var (
	tpccFlagNames     = runFlagNames{conc: "--terminals", duration: "--duration", warmup: "--warmup"}
	sysbenchFlagNames = runFlagNames{conc: "--threads", duration: "--time", warmup: "--warmup-time"}
	ycsbFlagNames     = runFlagNames{conc: "--threads", duration: "--time", warmup: "--warmup"}
)

// runnerProblems checks the runner settings every run command shares and
// names each problem with the family's flag names. durationRequired says a
// zero duration is an error (no operation count can end the run).
func runnerProblems(c runner.Config, n runFlagNames, durationRequired bool) []error {
	var errs []error
	if c.Terminals < 1 {
		errs = append(errs, usagef("%s must be >= 1 (got %d)", n.conc, c.Terminals))
	}
	if durationRequired && c.Duration <= 0 {
		errs = append(errs, usagef("%s must be > 0 (got %s)", n.duration, c.Duration))
	} else if c.Duration < 0 {
		errs = append(errs, usagef("%s must not be negative (got %s)", n.duration, c.Duration))
	}
	if c.Warmup < 0 {
		errs = append(errs, usagef("%s must not be negative (got %s)", n.warmup, c.Warmup))
	}
	if c.ReportInterval < 0 {
		errs = append(errs, usagef("--report-interval must not be negative (got %s)", c.ReportInterval))
	}
	if c.Rate < 0 {
		errs = append(errs, usagef("--rate must not be negative (got %g)", c.Rate))
	}
	if c.MaxRetries < 0 {
		errs = append(errs, usagef("--max-retries must not be negative (got %d)", c.MaxRetries))
	}
	return errs
}
