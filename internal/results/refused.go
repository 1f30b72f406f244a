package results

import (
	"time"
)

// Refused is the saved record of a run that produced no result: refused at
// start (connections, privileges, a server limit, bad options) or stopped
// before its window. Its verdict is failed with the error as its reason
// and hint (the remedy of a server limit or privilege) apart, so that a
// reader of the file (a script, a sweep's report) never takes it for a
// result, and a file left at the same path by an earlier run is replaced
// rather than read as this run's. url is redacted here; kind is the
// target kind its scheme names (target.KindOf: "mysql" for tidb://, ""
// for an unknown scheme).
func Refused(workload, url, kind, version string, started time.Time, err error, hint string) *Run {
	return &Run{
		FormatVersion: FormatVersion,
		Tool:          Tool{Name: "benchpress", Version: version},
		Workload:      workload, Target: Redact(url), TargetKind: kind,
		Status: "failed", Error: err.Error(),
		Verdict: VerdictFailed, VerdictReasons: []string{"stopped: " + err.Error()}, Hint: hint,
		StartedAt: started.UTC(), EndedAt: time.Now().UTC(),
	}
}
