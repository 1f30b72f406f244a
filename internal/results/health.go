package results

// ErrorSample is one distinct error message of one class, as first seen.
type ErrorSample struct {
	Class string `json:"class"`
	// Code is the server's code: MySQL error number or PostgreSQL SQLSTATE
	// ("" for transport and client-side errors).
	Code string `json:"code,omitempty"`
	// Op is the operation (transaction) that failed; Message names the
	// statement step and keeps the server's text.
	Op      string `json:"op"`
	Message string `json:"message"`
	// Count is how many failed attempts had exactly this message (counted
	// until every class's sample table filled).
	Count int64 `json:"count"`
	// Phase is when the failed transactions started: PhaseWarmup (not in
	// the window's figures: Summary.Errors, ErrorsByClass, the verdict) or
	// PhaseWindow; "" in files from before samples kept their phase.
	Phase string `json:"phase,omitempty"`
}

// Phases of an ErrorSample.
const (
	PhaseWarmup = "warmup"
	PhaseWindow = "window"
)

// PreparedStmts is how a run fitted the server's cap on prepared
// statements (MySQL's max_prepared_stmt_count, shared by all sessions).
type PreparedStmts struct {
	ServerLimit int64 `json:"server_limit"`  // max_prepared_stmt_count
	InUseBefore int64 `json:"in_use_before"` // Prepared_stmt_count before the run
	Terminals   int   `json:"terminals"`
	// RunTerminals is the whole run's terminals when Terminals are one
	// partition's share of it (absent otherwise, and in a merged run,
	// whose Terminals are its partitions' sum).
	RunTerminals int `json:"run_terminals,omitempty"`
	// PerSession is how many server-side statements each session was
	// allowed: (limit − in use − reserve) / terminals, and for a partition
	// at most (limit − reserve) / run terminals.
	PerSession int `json:"per_session"`
	// Prepared is how many each session prepares server-side; Kinds is how
	// many distinct statements the workload has. Kinds − Prepared run as
	// text (arguments encoded client-side).
	Prepared int `json:"prepared"`
	Kinds    int `json:"kinds"`
}

// RateFigures are the open-loop figures of a run with a target rate
// (k6 constant-arrival-rate, sysbench --rate).
type RateFigures struct {
	TargetPerS   float64 `json:"target_per_s"`
	AchievedPerS float64 `json:"achieved_per_s"` // operations started per second of the window
	// Late counts operations started more than LateAfterMS after their
	// intended time (the system could not keep up); Dropped counts
	// intended starts that never ran because the window closed first.
	Late        int64   `json:"late"`
	LateAfterMS float64 `json:"late_after_ms"`
	Dropped     int64   `json:"dropped"`
	Arrivals    string  `json:"arrivals"` // "uniform" or "poisson"
	// ServiceAvgMS is the mean service time (actual start to completion),
	// beside the response time the latency figures give (intended start to
	// completion): the difference is the time spent waiting for a slot.
	ServiceAvgMS float64 `json:"service_avg_ms"`
}
