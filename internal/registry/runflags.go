package registry

import (
	"fmt"

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

// RunnerProblems checks the runner settings every run command shares
// (runner.Config.Problems) and names each problem with the flag names fs
// declares. durationRequired says a zero duration is an error (no
// operation count can end the run); without it a zero duration is left to
// the command, which knows its operation count flags.
func RunnerProblems(c runner.Config, fs *pflag.FlagSet, durationRequired bool) []error {
	n := namesIn(fs)
	flags := map[runner.Setting]string{
		runner.SettingTerminals:      n.Conc,
		runner.SettingWarmup:         n.Warmup,
		runner.SettingDuration:       n.Duration,
		runner.SettingRate:           "--rate",
		runner.SettingMaxRetries:     "--max-retries",
		runner.SettingReportInterval: "--report-interval",
		runner.SettingMaxOps:         "the operation count",
	}
	if durationRequired {
		c.MaxOps = 0 // no operation count can end this command's run
	}
	var errs []error
	for _, p := range c.Problems() {
		msg := p.Msg
		if p.Setting == runner.SettingDuration {
			switch {
			case durationRequired:
				msg = fmt.Sprintf("must be > 0 (got %s)", c.Duration)
			case c.Duration == 0:
				continue
			}
		}
		errs = append(errs, usage.Errorf("%s %s", flags[p.Setting], msg))
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
