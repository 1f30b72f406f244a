package sweep

import (
	"fmt"
	"io"
	"time"

	"benchpress/internal/results"
)

// progress writes one line per step: position, cell, status (the verdict
// where a step that ran to its end was judged degraded or failed),
// headline figures, why, and the estimated time left.
type progress struct {
	w     io.Writer
	total int
}

func (p progress) prefix(i int, c Cell) string {
	return fmt.Sprintf("[%*d/%d] %s c=%d %s", len(fmt.Sprint(p.total)), i+1, p.total, c.Case.ID, c.Concurrency, c.Case.Workload)
}

func (p progress) skip(i int, c Cell) {
	if p.w != nil {
		fmt.Fprintf(p.w, "%s: skipped (resume: already ok)\n", p.prefix(i, c))
	}
}

func (p progress) done(i int, c Cell, r *results.Run, status string, err error, left time.Duration) {
	if p.w == nil {
		return
	}
	// A step that ran to its end but was judged degraded or failed is
	// named by its verdict, not "ok": the word a reader scans for.
	judged := r != nil && status == "ok" && (r.Verdict == results.VerdictDegraded || r.Verdict == results.VerdictFailed)
	head := status
	if judged {
		head = r.Verdict
	}
	line := p.prefix(i, c) + ": " + head
	if r != nil && status != "failed" {
		s := r.Summary
		if s.TpmC > 0 {
			line += fmt.Sprintf("  tpmC %.1f", s.TpmC)
		}
		line += fmt.Sprintf("  TPS %.1f", s.TPS)
		if s.QPS > 0 {
			line += fmt.Sprintf("  QPS %.1f", s.QPS)
		}
		line += fmt.Sprintf("  p95 %.2f ms  p99 %.2f ms", s.P95MS, s.P99MS)
		if s.Errors > 0 {
			line += fmt.Sprintf("  errors %d", s.Errors)
		}
		if r.WarmupErrors > 0 {
			line += fmt.Sprintf("  warm-up errors %d", r.WarmupErrors)
		}
	}
	if err != nil {
		line += "  (" + err.Error() + ")"
	}
	if r != nil && r.Verdict != "" && r.Verdict != results.VerdictOK {
		reason := ""
		if len(r.VerdictReasons) > 0 {
			reason = r.VerdictReasons[0]
		}
		switch {
		case judged: // the verdict leads the line: only why
			if reason != "" {
				line += "  (" + reason + ")"
			}
		case err == nil || reason != "stopped: "+err.Error(): // else the error above says it all
			line += "  verdict " + r.Verdict
			if reason != "" {
				line += ": " + reason
			}
		}
	}
	if i+1 < p.total {
		line += "  eta " + FmtDur(left.Round(time.Second))
	}
	fmt.Fprintln(p.w, line)
}
