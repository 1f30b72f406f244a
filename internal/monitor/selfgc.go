package monitor

import "runtime/metrics"

// The Go runtime's own CPU accounting (runtime/metrics): the garbage
// collector's CPU time, the Ps' total time (GOMAXPROCS integrated over the
// wall clock) and their idle time. All three are the runtime's estimates
// in processor (P) time, from the same clock, so their ratios are shares
// of the driver's P time.
//
// The runtime updates them only at the end of a GC cycle (cpuStatsAggregate
// in runtime/metrics.go copies the snapshot its last mark termination
// took): a reading is the state at the last cycle's end, not at the
// reading.
const (
	gcCPUMetric    = "/cpu/classes/gc/total:cpu-seconds"
	totalCPUMetric = "/cpu/classes/total:cpu-seconds"
	idleCPUMetric  = "/cpu/classes/idle:cpu-seconds"
	gcCyclesMetric = "/gc/cycles/total:gc-cycles"
)

// gcReading is one reading of the runtime's CPU classes, in seconds of P
// time since the process started, as of the last GC cycle's end, and the
// GC cycles completed since the process started (current at the reading).
type gcReading struct {
	gcS, busyS, totalS float64
	cycles             uint64
}

// gcCPU reads the runtime's CPU classes; ok is false if the runtime lacks
// the metrics.
func gcCPU() (r gcReading, ok bool) {
	s := []metrics.Sample{{Name: gcCPUMetric}, {Name: totalCPUMetric}, {Name: idleCPUMetric}, {Name: gcCyclesMetric}}
	metrics.Read(s)
	for _, m := range s[:3] {
		if m.Value.Kind() != metrics.KindFloat64 {
			return gcReading{}, false
		}
	}
	if s[3].Value.Kind() != metrics.KindUint64 {
		return gcReading{}, false
	}
	total := s[1].Value.Float64()
	return gcReading{gcS: s[0].Value.Float64(), busyS: total - s[2].Value.Float64(), totalS: total, cycles: s[3].Value.Uint64()}, true
}

// gcSharePct is the GC's share of the Ps' busy time in a window of wallS
// seconds run at procs Ps, in percent, from readings a and b taken at the
// window's ends. The two readings cover the span between the ends of the
// last GC cycles before each, not the window: the numerator is the GC time
// of the cycles that ended in the window, the denominator the window's P
// time (procs x wallS) at the span's busy fraction. Taking the span's busy
// time instead printed 12.8 % for a 10 s run whose only cycle ended 22 ms
// after the process started (the span was those 22 ms; the window's share
// was under 0.1 %), and a window after a warm-up without a cycle counted
// the warm-up's busy time. 0 when no cycle ended in the window.
func gcSharePct(a, b gcReading, wallS float64, procs int) float64 {
	span := b.totalS - a.totalS
	if span <= 0 || wallS <= 0 || procs <= 0 {
		return 0
	}
	busy := (b.busyS - a.busyS) / span * float64(procs) * wallS
	if busy <= 0 {
		return 0
	}
	return clamp((b.gcS-a.gcS)/busy*100, 0, 100)
}
