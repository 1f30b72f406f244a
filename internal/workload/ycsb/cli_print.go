package ycsb

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"benchpress/internal/console"
	"benchpress/internal/results"
	"benchpress/internal/runner"
)

// javaNames are the Java measurement names of Workload.Ops().
var javaNames = map[string]string{
	"read": "READ", "update": "UPDATE", "insert": "INSERT", "scan": "SCAN", "read_modify_write": "READ-MODIFY-WRITE",
}

func javaName(op string) string {
	if n, ok := javaNames[op]; ok {
		return n
	}
	return strings.ToUpper(op)
}

// liveLine is go-ycsb's periodic status, on one line:
// [ 10s ] OPS: 9876.5 | READ - Count: 49321, OPS: 4932.1, Avg(us): 393, 99th(us): 1000 | UPDATE - ...
func liveLine(r runner.Report) string {
	secs := r.Seconds
	if secs <= 0 {
		secs = 1
	}
	var b strings.Builder
	var total, errs int64
	for i, name := range r.OpNames {
		c := r.Snap.Counts[i]
		n := c.OK + c.Rollback
		total += n
		errs += c.Errors()
		if n == 0 {
			continue
		}
		h := r.Snap.OKHist[i]
		fmt.Fprintf(&b, " | %s - Count: %d, OPS: %.1f, Avg(us): %.0f, 99th(us): %d",
			javaName(name), n, float64(n)/secs, h.Mean(), h.ValueAtQuantile(99))
	}
	tag := ""
	if r.Phase == "warmup" {
		tag = " (warm-up)"
	}
	return fmt.Sprintf("[ %s ]%s OPS: %.1f, errors: %d%s", console.Elapsed(r.Elapsed), tag, float64(total)/secs, errs, b.String())
}

// printReport writes the go-ycsb per-operation lines, then YCSB's
// [OVERALL] and return-code lines.
func printReport(w io.Writer, run *results.Run) {
	secs := run.Summary.DurationS
	console.Title(w, run)
	fmt.Fprintf(w, "threads: %v, measured %.1f s after %.0f s warm-up%s\n", run.Config["threads"], secs, run.WarmupS, console.Status(run))
	fmt.Fprintf(w, "Run finished, takes %s\n", time.Duration(secs*float64(time.Second)).Round(time.Millisecond))
	var okAll, errAll *hdr.Histogram
	merge := func(dst **hdr.Histogram, h *hdr.Histogram) {
		if *dst == nil {
			*dst = hdr.New(h.LowestTrackableValue(), h.HighestTrackableValue(), int(h.SignificantFigures()))
		}
		(*dst).Merge(h)
	}
	line := func(label string, h *hdr.Histogram) {
		n := h.TotalCount()
		ops := 0.0
		if secs > 0 {
			ops = float64(n) / secs
		}
		fmt.Fprintf(w, "%-6s - Takes(s): %.1f, Count: %d, OPS: %.1f, Avg(us): %.0f, Min(us): %d, Max(us): %d, 50th(us): %d, 90th(us): %d, 95th(us): %d, 99th(us): %d, 99.9th(us): %d, 99.99th(us): %d\n",
			label, secs, n, ops, h.Mean(), h.Min(), h.Max(), h.ValueAtQuantile(50), h.ValueAtQuantile(90),
			h.ValueAtQuantile(95), h.ValueAtQuantile(99), h.ValueAtQuantile(99.9), h.ValueAtQuantile(99.99))
	}
	for _, suffix := range []string{"", ".err"} {
		for _, o := range run.Ops {
			enc, ok := run.Histograms[o.Name+suffix]
			if !ok {
				continue
			}
			h, err := results.DecodeHistogram(enc)
			if err != nil || h.TotalCount() == 0 {
				continue
			}
			label := javaName(o.Name)
			if suffix == "" {
				merge(&okAll, h)
			} else {
				label += "-FAILED"
				merge(&errAll, h)
			}
			line(label, h)
		}
	}
	if okAll != nil {
		line("TOTAL", okAll)
	}
	if errAll != nil {
		line("TOTAL-FAILED", errAll)
	}
	yc, _ := run.Extra["ycsb"].(*Summary)
	if yc == nil {
		yc = &Summary{}
	}
	ops, tput := yc.Operations, yc.ThroughputOpsSec
	fmt.Fprintln(w)
	fmt.Fprintf(w, "[OVERALL], RunTime(ms), %.0f\n", math.Round(secs*1000))
	fmt.Fprintf(w, "[OVERALL], Throughput(ops/sec), %.1f\n", tput)
	fmt.Fprintf(w, "[OVERALL], Operations, %d\n", ops)
	codes, _ := run.Extra["return_codes"].(map[string]map[string]int64)
	for _, op := range []string{"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"} {
		for _, rc := range []string{"OK", "NOT_FOUND", "ERROR"} {
			if n, ok := codes[op][rc]; ok {
				fmt.Fprintf(w, "[%s], Return=%s, %d\n", op, rc, n)
			}
		}
	}
	if yc.ScanRecords > 0 {
		fmt.Fprintf(w, "[SCAN], Records, %d\n", yc.ScanRecords)
	}
	if run.Summary.Errors > 0 {
		fmt.Fprintf(w, "errors: %d%s\n", run.Summary.Errors, console.ErrClasses(run.ErrorsByClass))
	}
	if run.Summary.Retries > 0 {
		fmt.Fprintf(w, "retries: %d%s\n", run.Summary.Retries, console.ErrClasses(run.RetriesByClass))
	}
	console.TerminalsLine(w, run)
	console.DriverLine(w, run)
}
