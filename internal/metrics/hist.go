// Package metrics records transaction outcomes and latencies without a lock
// shared by workers, in the pattern of cockroach's pkg/workload/histogram:
// every worker records into its own Recorder behind a mutex that only the
// worker and the ticker ever take; once a second the ticker swaps the
// recorder's buffer for an empty one under that lock (a pointer swap) and
// folds the full buffer into the interval and cumulative HDR histograms
// outside it.
//
// A recorder buffers compact samples (8 bytes each) instead of holding
// histograms of its own: one HDR histogram at the package bounds is about
// 188 KB, so per-worker (or per-shard) histograms per operation would grow
// with cores x ops (hundreds of MB on a large machine) while the samples of
// one second grow only with the throughput. Buffers are double-buffered per
// recorder and keep their capacity, so steady-state recording does not
// allocate. Histograms exist only in the ticker's snapshots (interval and
// cumulative), a fixed few per operation.
//
// Latency is recorded in microseconds. Recording is phase-tagged: a sample is
// part of the measurement window only if it was recorded in the Measure
// phase, so warm-up is excluded exactly.
package metrics

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram bounds: 1 us .. 1 hour, 3 significant digits.
const (
	minLatencyUS = 1
	maxLatencyUS = int64(time.Hour / time.Microsecond)
	sigFigs      = 3
)

// NewHistogram returns an empty latency histogram with the package bounds.
func NewHistogram() *hdr.Histogram { return hdr.New(minLatencyUS, maxLatencyUS, sigFigs) }

// clampUS converts d to whole microseconds within the histogram's range.
func clampUS(d time.Duration) int64 {
	us := int64(d / time.Microsecond)
	if us < minLatencyUS {
		return minLatencyUS
	} else if us > maxLatencyUS {
		return maxLatencyUS
	}
	return us
}

// recordUS records d in microseconds, clamped into the histogram's range.
func recordUS(h *hdr.Histogram, d time.Duration) { _ = h.RecordValue(clampUS(d)) }
