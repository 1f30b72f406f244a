// Package monitor measures the machines around a benchmark: the driver
// process's own resource use (self-accounting, [StartSelf]), whether the
// driver rather than the database may be limiting throughput ([Assess]), a
// description of the local host ([HostInfo]) and a once-per-interval series
// of host figures ([Sampler]: CPU %, memory, per-interface network and
// per-device disk rates).
//
// Self-accounting reads getrusage(RUSAGE_SELF) and /proc (Linux); on other
// systems the machine-wide figures are left at zero and [Assess] does not
// judge. The samplers use github.com/shirou/gopsutil/v4.
//
// # Where remote hosts plug in
//
// A [Sampler] does not read the host itself: it asks a counterSource for a
// [Counters] snapshot (cumulative CPU time, memory in use, per-interface and
// per-device byte counters) and turns two consecutive snapshots into a
// [Sample] with the pure function rates. The local source wraps gopsutil.
// Watching a database server remotely adds a second counterSource in this
// package that scrapes a node_exporter /metrics endpoint over HTTP, parses it
// with prometheus/common/expfmt and fills the same Counters from
// node_cpu_seconds_total (idle and iowait modes as idle, guest modes left
// out), node_memory_MemTotal_bytes minus node_memory_MemAvailable_bytes,
// node_network_{receive,transmit}_bytes_total (device label) and
// node_disk_{read,written}_bytes_total (device label), plus a constructor
// that takes the endpoint URL. Rates, the lo filter, the device-name filters
// and the series handling are shared, so local and remote series have the
// same shape and units.
package monitor
