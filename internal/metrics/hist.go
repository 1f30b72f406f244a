// Package metrics records transaction latencies into HDR histograms without a
// lock shared by all workers: workers record into one of a few shards (each
// with its own mutex, so contention is between at most a handful of
// goroutines), and a single ticker goroutine merges the shards into interval
// and cumulative snapshots.
//
// Latency is recorded in microseconds. Recording is phase-tagged: a sample is
// part of the measurement window only if the registry was in the Measure phase
// when the sample completed, so warm-up is excluded exactly.
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

// recordUS records d in microseconds, clamped into the histogram's range.
func recordUS(h *hdr.Histogram, d time.Duration) {
	us := int64(d / time.Microsecond)
	if us < minLatencyUS {
		us = minLatencyUS
	} else if us > maxLatencyUS {
		us = maxLatencyUS
	}
	_ = h.RecordValue(us)
}
