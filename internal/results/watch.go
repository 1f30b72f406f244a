package results

import (
	"fmt"
	"math"
)

// Watch holds what benchpress saw on the machines around a run over its
// measurement window: hosts (the load machine through gopsutil, others
// through node_exporter), named processes (/proc locally, process-exporter
// remotely) and the database server's own counters. Every rate is a mean
// over the samples inside the window; a host that did not answer leaves a
// gap, never a zero.
type Watch struct {
	IntervalS float64          `json:"interval_s"`
	Hosts     []WatchedHost    `json:"hosts,omitempty"`
	Processes []WatchedProcess `json:"processes,omitempty"`
	Database  *DBFigures       `json:"database,omitempty"`
}

// WatchedHost is one host's figures over the window.
type WatchedHost struct {
	Name string `json:"name"`
	// Role is what the host does ("load", "compute", "storage", "lb", ...).
	Role string `json:"role,omitempty"`
	// Source is "local" (gopsutil) or the node_exporter URL.
	Source  string `json:"source"`
	Samples int    `json:"samples"`
	// Gaps are the stretches in which the host did not answer.
	Gaps  []Gap  `json:"gaps,omitempty"`
	Error string `json:"error,omitempty"` // first read error
	Cores int    `json:"cores,omitempty"`
	// CPU in percent of all cores (100 = every core busy): mean and the
	// highest one-interval value; user/sys/iowait split the mean.
	CPUPct    float64 `json:"cpu_pct"`
	CPUMaxPct float64 `json:"cpu_max_pct"`
	UserPct   float64 `json:"user_pct"`
	SysPct    float64 `json:"sys_pct"`
	IowaitPct float64 `json:"iowait_pct"`
	// StealPct is the share of the cores' time the hypervisor gave to
	// other guests (steal, inside CPUPct): mean and highest interval.
	// While it takes a virtual core, whatever ran there (a terminal, a
	// server process) stalls: latencies include the stall.
	StealPct    float64 `json:"steal_pct,omitempty"`
	StealMaxPct float64 `json:"steal_max_pct,omitempty"`
	// Memory in use at the end of the window (highest seen) and total.
	MemUsedBytes  uint64 `json:"mem_used_bytes,omitempty"`
	MemTotalBytes uint64 `json:"mem_total_bytes,omitempty"`
	// NetRxBps/NetTxBps sum every interface but loopback, in bytes/s;
	// Loopback* is lo's traffic (a database on the same host talks over it).
	NetRxBps      float64            `json:"net_rx_bps"`
	NetTxBps      float64            `json:"net_tx_bps"`
	LoopbackRxBps float64            `json:"loopback_rx_bps,omitempty"`
	LoopbackTxBps float64            `json:"loopback_tx_bps,omitempty"`
	Net           map[string]IORate  `json:"net,omitempty"`
	DiskReadBps   float64            `json:"disk_read_bps"`
	DiskWriteBps  float64            `json:"disk_write_bps"`
	DiskUtilPct   float64            `json:"disk_util_pct"` // busiest device
	Disk          map[string]IORate  `json:"disk,omitempty"`
	Series        []HostPoint        `json:"series,omitempty"`
	Extra         map[string]float64 `json:"extra,omitempty"`
	// AnswerMaxMS is the longest an exporter of the host took to answer
	// in the window. A reading is dated to the middle of its request, so
	// its instant is known to within half of it, and a rate over a span
	// of S seconds to within about AnswerMaxMS/1000/S of itself.
	AnswerMaxMS float64 `json:"answer_max_ms,omitempty"`
	// NoNet and NoDisk: no reading of the window had the host's network
	// (disk) counters (a collector disabled or failing): the NIC (disk)
	// figures are unknown, not zero.
	NoNet  bool `json:"no_net,omitempty"`
	NoDisk bool `json:"no_disk,omitempty"`
	// Resets counts the intervals left out because a counter went back
	// (a reboot, a restarted exporter): unknown, not idle.
	Resets int `json:"counter_resets,omitempty"`
	// ProcessError is the first failure of the host's process page in
	// the window where its host figures came (process-exporter too slow
	// or down): its process groups have gaps, or no figures at all.
	ProcessError string `json:"process_error,omitempty"`
}

// IORate is one interface's (In = receive, Out = transmit) or one disk's
// (In = read, Out = write) mean rate in bytes per second; UtilPct is a
// disk's busy share of the window.
type IORate struct {
	InBps   float64 `json:"in_bps"`
	OutBps  float64 `json:"out_bps"`
	UtilPct float64 `json:"util_pct,omitempty"`
}

// HostPoint is one sampling interval of a host, T seconds after the window
// opened (the interval's end).
type HostPoint struct {
	T        float64 `json:"t"`
	CPUPct   float64 `json:"cpu_pct"`
	NetRxBps float64 `json:"net_rx_bps"`
	NetTxBps float64 `json:"net_tx_bps"`
}

// Gap is a stretch of the window, in seconds after it opened, in which a
// watched source did not answer.
type Gap struct {
	FromS float64 `json:"from_s"`
	ToS   float64 `json:"to_s"`
	Error string  `json:"error,omitempty"`
}

// WatchedProcess is one named process group on one host over the window.
type WatchedProcess struct {
	Host   string `json:"host"`
	Name   string `json:"name"`   // "mariadbd", "postgres", "java", ...
	Source string `json:"source"` // "/proc" or the process-exporter URL
	Procs  int    `json:"procs"`
	// CPUCores is CPU seconds per second (1 = one core busy; top's 100 %),
	// the mean over the window; CPUMaxCores the highest interval.
	CPUCores    float64 `json:"cpu_cores"`
	CPUMaxCores float64 `json:"cpu_max_cores"`
	RSSBytes    uint64  `json:"rss_bytes"` // highest seen
	Samples     int     `json:"samples"`
	Gaps        []Gap   `json:"gaps,omitempty"`
	// Resets counts the intervals left out because the group's counter
	// went back (a restarted process-exporter, the group's processes
	// replaced): unknown, not idle.
	Resets int `json:"counter_resets,omitempty"`
	// Series is the group's CPU per sampling interval, so that two sources
	// of one process group can be compared over the same span.
	Series []ProcPoint `json:"series,omitempty"`
}

// ProcPoint is one sampling interval of a process group: it ended T
// seconds after the window opened and lasted DurS seconds, in which the
// group used Cores CPU seconds per second.
type ProcPoint struct {
	T     float64 `json:"t"`
	DurS  float64 `json:"dur_s"`
	Cores float64 `json:"cores"`
}

// DBFigures are the database server's own counters over the window.
type DBFigures struct {
	Kind string `json:"kind"` // "mysql" or "postgres"
	// Counters are the increase of each server counter over the window
	// (MySQL/MariaDB SHOW GLOBAL STATUS; PostgreSQL pg_stat_database of the
	// run's database); Gauges are values at the window's end
	// (Threads_running, numbackends).
	Counters map[string]float64 `json:"counters,omitempty"`
	Gauges   map[string]float64 `json:"gauges,omitempty"`
	// ServerCommits is the server's commit counter increase (Com_commit,
	// xact_commit); ToolCommits what benchpress counted as committed; both
	// over the window, or over the warm-up and the window when CommitsOver
	// is "run" (PostgreSQL 15+: the start is read before the warm-up, once
	// every backend has flushed the statistics it held back).
	ServerCommits int64  `json:"server_commits"`
	ToolCommits   int64  `json:"tool_commits"`
	CommitsOver   string `json:"commits_over,omitempty"`
	// CommitCheck is "agree", "disagree" or "n/a"; CommitNote says why.
	CommitCheck string `json:"commit_check,omitempty"`
	CommitNote  string `json:"commit_note,omitempty"`
	// Size is the data set's size at the end of the window.
	Size  *DBSize `json:"size,omitempty"`
	Error string  `json:"error,omitempty"`
}

// DBSize is the data and index size of the run's tables, as the server
// reports it (information_schema.TABLES, pg_relation_size /
// pg_indexes_size), and the raw bytes benchpress generated for them when
// known (prepare), so that RawBytes / TotalBytes is the compression ratio.
type DBSize struct {
	Tables     []TableSize `json:"tables,omitempty"`
	DataBytes  int64       `json:"data_bytes"`
	IndexBytes int64       `json:"index_bytes"`
	TotalBytes int64       `json:"total_bytes"`
	RawBytes   int64       `json:"raw_bytes,omitempty"`
}

// TableSize is one table's size.
type TableSize struct {
	Name       string `json:"name"`
	Rows       int64  `json:"rows,omitempty"` // server's estimate
	DataBytes  int64  `json:"data_bytes"`
	IndexBytes int64  `json:"index_bytes"`
}

// Line is the one-line size and compression summary of seed 002:
// "database size: 12 table(s), data 1.2 GiB + index 300.0 MiB = 1.5 GiB on disk;
// generated 1.4 GiB raw: compression 0.93x (on-disk size 107.1% of raw)".
// The raw part is left out when RawBytes is unknown.
func (s *DBSize) Line() string {
	line := fmt.Sprintf("database size: %d table(s), data %s + index %s = %s on disk",
		len(s.Tables), HumanBytes(s.DataBytes), HumanBytes(s.IndexBytes), HumanBytes(s.TotalBytes))
	if s.RawBytes > 0 && s.TotalBytes > 0 {
		line += fmt.Sprintf("; generated %s raw: compression %.2fx (on-disk size %.1f%% of raw)",
			HumanBytes(s.RawBytes), float64(s.RawBytes)/float64(s.TotalBytes), 100*float64(s.TotalBytes)/float64(s.RawBytes))
	}
	return line
}

// HumanBytes formats a byte count with binary units ("1.5 GiB").
func HumanBytes(n int64) string {
	v := float64(n)
	for _, u := range []string{"B", "KiB", "MiB", "GiB", "TiB"} {
		if math.Abs(v) < 1024 || u == "TiB" {
			if u == "B" {
				return fmt.Sprintf("%d B", n)
			}
			return fmt.Sprintf("%.1f %s", v, u)
		}
		v /= 1024
	}
	return ""
}
