// Package monitor measures the machines around a benchmark: the driver
// process's own resource use (self-accounting, [StartSelf]), whether the
// driver rather than the database may be limiting throughput ([Assess]), a
// description of the local host ([HostInfo]), the watched hosts and
// processes of a run ([StartWatch], [Watcher.Summary]), and the database
// server's own counters and data set size ([ReadDBCounters],
// [DBFiguresOf], [ReadDBSize], [SizeLine]).
//
// Self-accounting reads getrusage(RUSAGE_SELF) and /proc (Linux); on other
// systems the machine-wide figures are left at zero and [Assess] does not
// judge.
//
// # Host and process sources
//
// A host is read into [Counters] (cumulative CPU time, memory in use,
// per-interface and per-device byte counters, per-device busy time) and two
// consecutive readings become a [Sample] through the pure function rates,
// whatever the source, so local and remote figures have the same shape and
// units:
//
//   - the local host through gopsutil (CPU, memory as total minus
//     available, /proc/net/dev, /proc/diskstats) and its named processes
//     from /proc/<pid>/stat, grouped by command name, with per-pid CPU
//     accounting so processes that exit never make a group go backwards;
//   - a remote host through its node_exporter /metrics page, parsed with
//     prometheus/common/expfmt: node_cpu_seconds_total (idle and iowait
//     modes as idle, guest left out), node_memory_MemTotal_bytes minus
//     node_memory_MemAvailable_bytes, node_network_{receive,transmit}_bytes_total,
//     node_disk_{read,written}_bytes_total and node_disk_io_time_seconds_total;
//     its processes through process-exporter's namedprocess_namegroup_*.
//
// A [Watcher] samples every host on its own goroutine once per interval and
// never touches the run's hot path. A reading that fails (a host that stops
// answering) is a gap: the intervals touching it are left out of the means,
// recorded with their error and reported as a note.
package monitor
