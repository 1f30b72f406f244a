package report

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchpress/internal/results"
	"benchpress/internal/sweep"
)

var update = flag.Bool("update", false, "rewrite golden report files")

// copyTree copies a fixture directory so Generate can write next to it.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestGolden(t *testing.T) {
	for _, name := range []string{"poc", "mixed", "watched", "proxy"} {
		t.Run(name, func(t *testing.T) {
			dir := copyTree(t, filepath.Join("testdata", name))
			files, err := Generate(dir)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(files[0])
			golden := filepath.Join("testdata", "golden", name+".md")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("report.md differs from %s (run go test -update and review the diff)", golden)
			}
			for _, f := range files[2:] {
				b, _ := os.ReadFile(f)
				if !bytes.Contains(b, []byte("<svg")) {
					t.Errorf("%s is not an SVG", f)
				}
				if !bytes.Contains(got, []byte("charts/"+filepath.Base(f))) {
					t.Errorf("report.md does not reference %s", filepath.Base(f))
				}
			}
			again, err := Generate(dir)
			if err != nil {
				t.Fatal(err)
			}
			for i := range files {
				a, _ := os.ReadFile(files[i])
				b, _ := os.ReadFile(again[i])
				if !bytes.Equal(a, b) {
					t.Errorf("%s is not deterministic", files[i])
				}
			}
		})
	}
}

// mdRow finds the Markdown table row under heading that starts with cells.
func mdRow(md, heading string, cells ...string) []string {
	i := strings.Index(md, heading)
	if i < 0 {
		return nil
	}
	prefix := "| " + strings.Join(cells, " | ") + " |"
	for _, line := range strings.Split(md[i:], "\n") {
		if strings.HasPrefix(line, prefix) {
			parts := strings.Split(strings.Trim(line, "| "), " | ")
			return parts
		}
	}
	return nil
}

// TestNumbersMatchJSON checks every TPC-C table row against its step JSON.
func TestNumbersMatchJSON(t *testing.T) {
	dir := copyTree(t, "testdata/poc")
	files, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(files[0])
	md := string(b)
	for _, id := range []string{"T1-1", "T1-2"} {
		paths, _ := filepath.Glob(filepath.Join(dir, id, "*.json"))
		for _, p := range paths {
			r, err := results.Read(p)
			if err != nil {
				t.Fatal(err)
			}
			c := strings.TrimSuffix(filepath.Base(p), ".json")
			row := mdRow(md, "## Case "+id, c)
			if row == nil {
				t.Fatalf("%s: no row for concurrency %s", id, c)
			}
			if r.Status == "failed" {
				if !strings.HasPrefix(row[len(row)-1], "FAILED: ") {
					t.Errorf("%s@%s: failed step not marked: %q", id, c, row)
				}
				continue
			}
			s := r.Summary
			want := []string{c, fmt.Sprintf("%.2f", s.TpmC), fmt.Sprintf("%.2f", s.TpmTotal), fmt.Sprintf("%.2f", s.TPS),
				results.RatePct(s.SuccessRate) + "%", fmt.Sprintf("%.2f", s.AvgMS), fmt.Sprintf("%.2f", s.P95MS),
				fmt.Sprintf("%.2f", s.P99MS), fmt.Sprint(s.Errors)}
			if strings.Join(row[:len(want)], "|") != strings.Join(want, "|") {
				t.Errorf("%s@%s: row %q, JSON says %q", id, c, row, want)
			}
		}
	}
	// The named comparison's overhead at 64 = (base - other) / base.
	a, _ := results.Read(filepath.Join(dir, "T1-1", "64.json"))
	o, _ := results.Read(filepath.Join(dir, "T1-2", "64.json"))
	row := mdRow(md, "### Comparison: proxy-overhead", "64")
	want := fmt.Sprintf("%.2f%%", (a.Summary.TpmC-o.Summary.TpmC)/a.Summary.TpmC*100)
	if row == nil || row[3] != want {
		t.Errorf("overhead row %q, want overhead %s", row, want)
	}
}

func TestOverheadMatchesSeed(t *testing.T) {
	// Seed 000 style: base 100, other 90.7 -> 9.3 % overhead.
	if got := pct(Overhead(100, 90.7)); got != "9.30%" {
		t.Fatalf("overhead %s", got)
	}
	if got := ratio(90.7 / 100); got != "0.907x" {
		t.Fatalf("speed-up %s", got)
	}
}

func TestPeakAndSaturation(t *testing.T) {
	// A negative value is a step of that throughput whose verdict is
	// degraded (errors), one ending in .25 a step that failed its
	// checks: neither may be the peak nor decide the saturation point.
	mk := func(vals ...float64) *Case {
		c := &Case{Workload: "sysbench/oltp_read_write"}
		for i, v := range vals {
			r := &results.Run{Workload: c.Workload, Status: "ok"}
			switch {
			case v < 0:
				v, r.Verdict = -v, results.VerdictDegraded
			case v-float64(int(v)) == 0.25:
				r.Verdict = results.VerdictFailed
			}
			r.Summary.TPS = v
			c.Steps = append(c.Steps, &Step{Concurrency: 1 << i, Run: r})
		}
		return c
	}
	tests := []struct {
		name      string
		vals      []float64
		peak, sat int // concurrency, 0 = none
	}{
		{"keeps gaining", []float64{10, 20, 40}, 4, 0},
		{"flattens", []float64{10, 20, 20.5, 22}, 8, 2},
		{"drops", []float64{10, 30, 25}, 2, 2},
		{"single", []float64{5}, 1, 0},
		{"a degraded step does not flatten the curve", []float64{10, 20, -20.5, 40}, 8, 0},
		{"a degraded step is passed over", []float64{10, 20, -30, 20.5}, 8, 2},
		{"a failed step is passed over", []float64{10, 20, 20.25, 40}, 8, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := mk(tc.vals...)
			if p := c.Peak(); p == nil || p.Concurrency != tc.peak {
				t.Errorf("peak %v, want %d", p, tc.peak)
			}
			s := c.Saturation()
			if (s == nil && tc.sat != 0) || (s != nil && s.Concurrency != tc.sat) {
				t.Errorf("saturation %v, want %d", s, tc.sat)
			}
		})
	}
}

func TestSingleRunAndLooseDir(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("testdata", "poc", "T1-1")
	for _, c := range []string{"8", "64"} {
		b, _ := os.ReadFile(filepath.Join(src, c+".json"))
		os.WriteFile(filepath.Join(dir, "run-"+c+".json"), b, 0o644)
	}
	files, err := Generate(filepath.Join(dir, "run-8.json"))
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(files[0])
	if !strings.Contains(string(md), "| 8 | ") {
		t.Errorf("single-run report lacks the step row:\n%s", md)
	}
	files, err = Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	md, _ = os.ReadFile(files[0])
	if !strings.Contains(string(md), "| 64 | ") || !strings.Contains(string(md), "## Case tpcc @ mysql://bench@10.0.0.5:3306/tpcc") {
		t.Errorf("loose-dir report:\n%s", md)
	}
	_ = sweep.PlanFile
}

// A sweep whose plan has steps without a result (interrupted, or stopped
// before it had one) renders as an incomplete ladder: "1 of 2" steps, the
// missing concurrencies named, no "not reached" saturation, a note.
func TestReportMarksStepsNotRun(t *testing.T) {
	dir := copyTree(t, filepath.Join("testdata", "watched"))
	if err := os.Remove(filepath.Join(dir, "T2", "4.json")); err != nil {
		t.Fatal(err)
	}
	files, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(files[0])
	md := string(b)
	row := mdRow(md, "## Summary", "T2")
	if len(row) < 10 || row[3] != "1 of 2" || row[7] == "not reached" || !strings.Contains(row[9], "not run: 4") {
		t.Fatalf("summary row %q: want 1 of 2 steps, no saturation verdict, not run: 4", row)
	}
	if full := mdRow(md, "## Summary", "T1"); len(full) < 4 || full[3] != "2" {
		t.Errorf("complete case row %q", full)
	}
	if !strings.Contains(md, "Step(s) 4 of the plan's ladder did not run") {
		t.Error("no note that the ladder is incomplete")
	}
}

// A case whose steps are one partition's files (a run split over machines,
// not merged) says so in the summary: each figure is that share.
func TestReportMarksPartitionShare(t *testing.T) {
	dir := copyTree(t, filepath.Join("testdata", "watched"))
	for _, f := range []string{"2.json", "4.json"} {
		p := filepath.Join(dir, "T1", f)
		r, err := results.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		r.Partition = &results.Partition{Index: 0, Count: 2, Terminals: 1}
		if err := results.Write(p, r); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(files[0])
	row := mdRow(string(b), "## Summary", "T1")
	if len(row) < 10 || !strings.Contains(row[9], "partition 0/2: one process's share") {
		t.Fatalf("summary row %q: want the partition's share marked", row)
	}
	if other := mdRow(string(b), "## Summary", "T2"); len(other) < 10 || strings.Contains(other[9], "partition") {
		t.Errorf("unsplit case row %q", other)
	}
}
