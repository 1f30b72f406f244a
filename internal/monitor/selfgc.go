package monitor

import "runtime/metrics"

// The Go runtime's own CPU accounting (runtime/metrics): the garbage
// collector's CPU time and the time the process's Ps were not idle. Both are
// the runtime's estimates, from the same clock, so their ratio is the share
// of the driver's CPU spent collecting garbage.
const (
	gcCPUMetric    = "/cpu/classes/gc/total:cpu-seconds"
	totalCPUMetric = "/cpu/classes/total:cpu-seconds"
	idleCPUMetric  = "/cpu/classes/idle:cpu-seconds"
)

// gcCPU returns the GC CPU seconds and the busy (total - idle) CPU seconds
// since the process started; ok is false if the runtime lacks the metrics.
func gcCPU() (gcS, busyS float64, ok bool) {
	s := []metrics.Sample{{Name: gcCPUMetric}, {Name: totalCPUMetric}, {Name: idleCPUMetric}}
	metrics.Read(s)
	for _, m := range s {
		if m.Value.Kind() != metrics.KindFloat64 {
			return 0, 0, false
		}
	}
	return s[0].Value.Float64(), s[1].Value.Float64() - s[2].Value.Float64(), true
}

// gcSharePct is the GC's share of the busy CPU between two readings, in
// percent (0 when nothing ran).
func gcSharePct(gcA, busyA, gcB, busyB float64) float64 {
	busy := busyB - busyA
	if busy <= 0 {
		return 0
	}
	return clamp((gcB-gcA)/busy*100, 0, 100)
}
