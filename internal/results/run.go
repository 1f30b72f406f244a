// Package results defines benchpress's versioned on-disk result format: one
// JSON document per run (a sweep step is one run). Reports read only these
// files, so every saved run can be re-rendered, compared or merged offline.
package results

import "time"

// FormatVersion is written as "format_version"; bump it on incompatible changes.
const FormatVersion = 1

// Run is the whole result of one run (or one sweep step).
type Run struct {
	FormatVersion int    `json:"format_version"`
	Tool          Tool   `json:"tool"`
	Workload      string `json:"workload"` // "tpcc", "sysbench/oltp_read_write", "ycsb/a"
	Target        string `json:"target"`   // redacted URL: never contains the password
	TargetKind    string `json:"target_kind"`
	ServerVersion string `json:"server_version,omitempty"`
	// Config is the resolved configuration (workload options, terminals,
	// warm-up, duration...), with secrets removed.
	Config map[string]any `json:"config"`
	Status string         `json:"status"` // "ok", "interrupted", "failed"
	Error  string         `json:"error,omitempty"`
	// Hint is a one-line remedy for Error when its cause is a server
	// setting or a privilege (max_prepared_stmt_count, GRANTs...).
	Hint string `json:"hint,omitempty"`
	// Verdict is "ok", "degraded" or "failed", with the reasons (see
	// Judge); absent in files written before verdicts existed.
	Verdict        string   `json:"verdict,omitempty"`
	VerdictReasons []string `json:"verdict_reasons,omitempty"`
	// MinSuccessPct is the --min-success bound the verdict was judged
	// against (absent in files from before it was saved: 99).
	MinSuccessPct *float64  `json:"min_success_pct,omitempty"`
	StartedAt     time.Time `json:"started_at"`
	EndedAt       time.Time `json:"ended_at"`
	WarmupS       float64   `json:"warmup_s"`
	Summary       Summary   `json:"summary"`
	Ops           []Op      `json:"ops"`
	// ErrorsByClass counts failed transactions by error class (deadlock,
	// ...): attempts whose error was not retried (retries exhausted, or a
	// class that is not retried); it sums to Summary.Errors.
	ErrorsByClass map[string]int64 `json:"errors_by_class"`
	// RetriesByClass counts the failed attempts that were re-run, by error
	// class; it sums to Summary.Retries. Every failed attempt of a class
	// is ErrorsByClass + RetriesByClass (absent in files from before
	// retries were classified).
	RetriesByClass map[string]int64 `json:"retries_by_class,omitempty"`
	// ErrorSamples are the first distinct error messages per class, with
	// the server's code and the statement that failed.
	ErrorSamples []ErrorSample `json:"error_samples,omitempty"`
	// PreparedStatements is how the run fitted the server's cap on
	// prepared statements (MySQL prepared mode only).
	PreparedStatements *PreparedStmts `json:"prepared_statements,omitempty"`
	// ReconnectFailures counts failed reconnect attempts after lost
	// connections (each attempt of the back-off loop).
	ReconnectFailures int64 `json:"reconnect_failures,omitempty"`
	// Rate holds the open-loop figures when a target rate was set.
	Rate *RateFigures `json:"rate,omitempty"`
	// Endpoints counts connections opened per endpoint (load balancing).
	Endpoints map[string]int64 `json:"endpoints,omitempty"`
	// Clients counts sessions per client library: on MySQL
	// "benchpress-mywire" (the protocol client) or "go-sql-driver/mysql"
	// (text mode, TLS or compressed sessions, --mysql-client driver);
	// "pgx" on PostgreSQL, "modernc.org/sqlite" on SQLite.
	Clients map[string]int64 `json:"clients,omitempty"`
	// Reconnects counts the sessions re-opened after a loss in the
	// measurement window, WarmupReconnects after one in the warm-up (absent
	// when none; files from before 2026-11-27 counted both in Reconnects).
	Reconnects       int64 `json:"reconnects"`
	WarmupReconnects int64 `json:"warmup_reconnects,omitempty"`
	// WarmupErrors counts the failed transactions that started in the
	// warm-up (absent when none, and in files from before 2026-11-28):
	// not in Summary.Errors, ErrorsByClass nor the verdict's success
	// rate, which are the window's.
	WarmupErrors int64 `json:"warmup_errors,omitempty"`
	// Abandoned counts the transactions started in the window that were
	// still in flight when the drain's grace (30 s) ran out and were
	// aborted: none of their outcomes or latencies is in the figures. The
	// verdict is degraded when any were.
	Abandoned int64 `json:"abandoned,omitempty"`
	// Terminals is how the window's work spread over the terminals, and
	// which completed nothing (terminals.go).
	Terminals *Terminals `json:"terminals,omitempty"`
	// ConnectS is the start-up time: opening every session and preparing
	// every terminal's statements, before warm-up begins.
	ConnectS float64    `json:"connect_s"`
	Series   []Interval `json:"series"`
	// Histograms holds the measurement window's HDR histograms, per op
	// ("<op>" for successes, "<op>.err" for errors), in HdrHistogram's V2
	// compressed base64 encoding (latency in microseconds).
	Histograms map[string]string `json:"histograms"`
	Driver     *Driver           `json:"driver,omitempty"`
	Checks     []Check           `json:"checks,omitempty"`
	// Watch holds the watched hosts, processes and database counters
	// (absent when nothing was watched).
	Watch *Watch `json:"watch,omitempty"`
	// Notes are remarks on the run's trustworthiness that do not fail it
	// (a watched host that stopped answering, commit counts that disagree).
	Notes []string `json:"notes,omitempty"`
	// Extra carries workload-specific figures (TPC-C audit, sysbench query
	// classes, YCSB per-op return codes...).
	Extra map[string]any `json:"extra,omitempty"`
	// Partition is set on one partition of a partitioned run; Merged on the
	// result `benchpress merge` built from all of them (partition.go).
	Partition *Partition `json:"partition,omitempty"`
	Merged    *Merged    `json:"merged,omitempty"`
}

// Tool identifies the producing binary.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Summary holds the headline figures. The TPC-C-only fields are zero/omitted
// for other workloads; tps, success_rate, errors and duration_s are always set.
type Summary struct {
	TpmC                float64 `json:"tpmC"`
	TpmTotal            float64 `json:"tpmTotal"`
	TPS                 float64 `json:"tps"`
	QPS                 float64 `json:"qps,omitempty"`
	SuccessRate         float64 `json:"success_rate"` // percent of attempts that succeeded
	Transactions        int64   `json:"transactions"` // successful (incl. spec rollbacks)
	Errors              int64   `json:"errors"`
	Retries             int64   `json:"retries"`
	DurationS           float64 `json:"duration_s"` // measurement window actually run
	NewOrderCommitted   int64   `json:"new_order_committed"`
	NewOrderRolledBack  int64   `json:"new_order_rolled_back"`
	NewOrderRollbackPct float64 `json:"new_order_rollback_pct,omitempty"`
	Efficiency          float64 `json:"efficiency_pct,omitempty"` // TPC-C with --wait: tpmC / (12.86 x terminals/10)
	// EfficiencyNote says what the efficiency rests on, or why it is not given.
	EfficiencyNote string  `json:"efficiency_note,omitempty"`
	AvgMS          float64 `json:"avg_ms"` // over all successful ops
	P95MS          float64 `json:"p95_ms"`
	P99MS          float64 `json:"p99_ms"`
}

// Op is one operation (transaction) type's figures over the measurement window.
type Op struct {
	Name      string  `json:"name"`
	Count     int64   `json:"count"` // successful, incl. spec rollbacks
	Rollbacks int64   `json:"rollbacks,omitempty"`
	Errors    int64   `json:"errors"`
	Retries   int64   `json:"retries,omitempty"`
	PerSec    float64 `json:"per_sec"`
	PerMin    float64 `json:"per_min"`
	Latency   Latency `json:"latency_ms"`
	// ErrLatency is the latency of failed attempts (own histogram).
	ErrLatency *Latency         `json:"err_latency_ms,omitempty"`
	ErrClasses map[string]int64 `json:"err_classes,omitempty"`
	// RetryClasses counts Retries by error class.
	RetryClasses map[string]int64 `json:"retry_classes,omitempty"`
}

// Latency percentiles in milliseconds.
type Latency struct {
	Min   float64 `json:"min"`
	Avg   float64 `json:"avg"`
	P50   float64 `json:"p50"`
	P90   float64 `json:"p90"`
	P95   float64 `json:"p95"`
	P99   float64 `json:"p99"`
	P999  float64 `json:"p99_9"`
	P9999 float64 `json:"p99_99"`
	Max   float64 `json:"max"`
}

// Interval is one --report-interval tick.
type Interval struct {
	T      float64 `json:"t"`               // seconds since start of the run (warm-up included)
	DurS   float64 `json:"dur_s,omitempty"` // length of the interval (T minus the previous T)
	Phase  string  `json:"phase"`           // "warmup" or "measure"
	TPS    float64 `json:"tps"`
	TpmC   float64 `json:"tpmC,omitempty"`
	Errors int64   `json:"errors"`
	// Ops per type: count and latency percentiles in this interval.
	Ops map[string]IntervalOp `json:"ops"`
}

// IntervalOp is one op type in one interval.
type IntervalOp struct {
	Count  int64   `json:"count"`
	PerSec float64 `json:"per_sec,omitempty"` // Count per second of the interval
	Errors int64   `json:"errors,omitempty"`
	AvgMS  float64 `json:"avg_ms"`
	P95MS  float64 `json:"p95_ms"`
	P99MS  float64 `json:"p99_ms"`
}

// Driver is the load generator's own resource use over the measurement window.
type Driver struct {
	CPUUserS       float64 `json:"cpu_user_s"`
	CPUSysS        float64 `json:"cpu_sys_s"`
	CPUPerTxnUS    float64 `json:"cpu_per_txn_us"`
	CPUPerStmtUS   float64 `json:"cpu_per_stmt_us,omitempty"`
	PeakRSSMB      float64 `json:"peak_rss_mb"`
	MachineBusyPct float64 `json:"machine_busy_pct"` // all cores, 100 = every core busy
	DriverSharePct float64 `json:"driver_share_pct"` // driver CPU / machine busy CPU
	Cores          int     `json:"cores"`
	GCSharePct     float64 `json:"gc_cpu_pct"` // garbage collector's share of the driver's CPU
	// GCCycles is how many GC cycles ended in the window (nil: not read,
	// as in results written before it existed); with 0 the share is 0
	// because no cycle ran, not a measured zero.
	GCCycles        *int64 `json:"gc_cycles,omitempty"`
	DriverBound     bool   `json:"driver_bound"`
	DriverBoundNote string `json:"driver_bound_note,omitempty"`
	// SocketIO is how the terminals waited for replies: "blocking" (each
	// on its own thread, in read) or "poller" (Go's network poller);
	// GoMaxProcs the runtime's P count during the run (--socket-io);
	// YieldMS, when set, how often at most a blocking terminal yielded to
	// Go's scheduler between transactions instead of being preempted by it
	// in the middle of one (every blocking run); YieldBeforeWait whether a
	// blocking read that found no reply yet gave up the CPU once before it
	// blocked (TPC-C's terminals on any server whenever they outnumber the
	// CPUs);
	// ParkLongWaitsMS, when set, how long a blocking read waited in its
	// thread before it waited on parked in Go's poller (TPC-C).
	SocketIO        string  `json:"socket_io,omitempty"`
	GoMaxProcs      int     `json:"gomaxprocs,omitempty"`
	YieldMS         float64 `json:"yield_ms,omitempty"`
	YieldBeforeWait bool    `json:"yield_before_wait,omitempty"`
	ParkLongWaitsMS float64 `json:"park_long_waits_ms,omitempty"`
}

// Check is one consistency or response-time check.
type Check struct {
	Name   string `json:"name"`
	Passed bool   `json:"passed"`
	// NotJudged: there was no (or too little) data to judge; Passed is
	// false and the check is shown as "not judged", not as a failure.
	NotJudged bool    `json:"not_judged,omitempty"`
	Detail    string  `json:"detail,omitempty"`
	TookS     float64 `json:"took_s,omitempty"`
}
