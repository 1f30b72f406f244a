// Package report renders saved results (a sweep directory, a directory of run
// JSONs or one run JSON) as Markdown and self-contained HTML with SVG charts,
// comparison tables, peaks and saturation points. It reads only files on disk
// and its output is deterministic for the same input.
package report

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"benchpress/internal/results"
)

// Dataset is everything a report is made of.
type Dataset struct {
	Title       string
	Description string
	Env         *results.Environment // nil when there is no environment.json
	Cases       []*Case              // plan order, else sorted by ID
	Compare     []results.Comparison
}

// Case is one test case: its steps sorted by concurrency.
type Case struct {
	ID          string
	Description string
	Target      string // redacted URL
	Workload    string
	Steps       []*Step
	// Planned is the case's ladder from the sweep's plan (nil for loose
	// results): a step planned without a result (the sweep was interrupted
	// before it) is shown as not run (NotRun).
	Planned []int
}

// NotRun returns the planned concurrencies that have no step, in ladder
// order.
func (c *Case) NotRun() []int {
	have := map[int]bool{}
	for _, s := range c.Steps {
		have[s.Concurrency] = true
	}
	var out []int
	for _, n := range c.Planned {
		if !have[n] {
			out = append(out, n)
			have[n] = true
		}
	}
	return out
}

// Step is one saved run at one concurrency.
type Step struct {
	Concurrency int
	File        string // path relative to the dataset root
	Run         *results.Run
}

// Load reads a sweep directory (plan.yaml + <case>/<n>.json), any directory
// of run JSONs (grouped by subdirectory, or by workload and target), or a
// single run JSON file.
func Load(path string) (*Dataset, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("load results: %w", err)
	}
	if !st.IsDir() {
		r, err := results.Read(path)
		if err != nil {
			return nil, err
		}
		id := strings.TrimSuffix(filepath.Base(path), ".json")
		c := &Case{ID: id, Target: r.Target, Workload: r.Workload,
			Steps: []*Step{{Concurrency: concurrencyOf(r, 0), File: filepath.Base(path), Run: r}}}
		return &Dataset{Title: "benchpress report: " + id, Cases: []*Case{c}}, nil
	}
	ds := &Dataset{Title: "benchpress report: " + filepath.Base(filepath.Clean(path))}
	if ds.Env, err = results.ReadEnvironment(path); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(path, results.PlanFile)); err == nil {
		err = loadSweep(path, ds)
		return ds, err
	}
	return ds, loadLoose(path, ds)
}

// loadSweep reads the cases named by DIR/plan.yaml (leniently: a saved
// plan renders whatever today's plan rules say).
func loadSweep(dir string, ds *Dataset) error {
	p, err := results.ReadPlan(filepath.Join(dir, results.PlanFile))
	if err != nil {
		return fmt.Errorf("load sweep %s: %w", dir, err)
	}
	ds.Title = "Performance test report: " + p.Name
	ds.Description = p.Description
	ds.Compare = p.Compare
	for _, rc := range p.Cases {
		c := &Case{ID: rc.ID, Description: rc.Description, Workload: rc.Workload,
			Target: p.Targets[rc.Target], Planned: rc.Ladder}
		if err := loadSteps(dir, rc.ID, c); err != nil {
			return err
		}
		ds.Cases = append(ds.Cases, c)
	}
	return nil
}

// loadSteps reads DIR/<sub>/*.json into c, concurrency from the file name.
func loadSteps(dir, sub string, c *Case) error {
	files, _ := filepath.Glob(filepath.Join(dir, sub, "*.json"))
	for _, f := range files {
		r, err := results.Read(f)
		if err != nil {
			return err
		}
		n, _ := strconv.Atoi(strings.TrimSuffix(filepath.Base(f), ".json"))
		rel, _ := filepath.Rel(dir, f)
		c.Steps = append(c.Steps, &Step{Concurrency: concurrencyOf(r, n), File: filepath.ToSlash(rel), Run: r})
	}
	sortSteps(c)
	return nil
}

// loadLoose groups run JSONs: each subdirectory is a case; top-level files
// are grouped by workload and target.
func loadLoose(dir string, ds *Dataset) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("load results: %w", err)
	}
	byKey := map[string]*Case{}
	for _, e := range entries {
		if e.IsDir() {
			c := &Case{ID: e.Name()}
			if err := loadSteps(dir, e.Name(), c); err != nil {
				return err
			}
			if len(c.Steps) > 0 {
				c.Workload, c.Target = c.Steps[0].Run.Workload, c.Steps[0].Run.Target
				ds.Cases = append(ds.Cases, c)
			}
			continue
		}
		if !strings.HasSuffix(e.Name(), ".json") || e.Name() == results.EnvironmentFile {
			continue
		}
		r, err := results.Read(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		key := r.Workload + " @ " + r.Target
		c := byKey[key]
		if c == nil {
			c = &Case{ID: key, Workload: r.Workload, Target: r.Target}
			byKey[key] = c
			ds.Cases = append(ds.Cases, c)
		}
		c.Steps = append(c.Steps, &Step{Concurrency: concurrencyOf(r, 0), File: e.Name(), Run: r})
	}
	if len(ds.Cases) == 0 {
		return fmt.Errorf("load results: no run JSON files in %s", dir)
	}
	for _, c := range ds.Cases {
		sortSteps(c)
	}
	sort.SliceStable(ds.Cases, func(i, j int) bool { return ds.Cases[i].ID < ds.Cases[j].ID })
	return nil
}

func sortSteps(c *Case) {
	sort.SliceStable(c.Steps, func(i, j int) bool {
		if c.Steps[i].Concurrency != c.Steps[j].Concurrency {
			return c.Steps[i].Concurrency < c.Steps[j].Concurrency
		}
		return c.Steps[i].File < c.Steps[j].File
	})
}

// concurrencyOf prefers the run's own config (concurrency, terminals,
// threads), else fallback (the file name's number in a sweep).
func concurrencyOf(r *results.Run, fallback int) int {
	for _, k := range []string{"concurrency", "terminals", "threads"} {
		switch v := r.Config[k].(type) {
		case float64:
			return int(v)
		case int:
			return v
		case string:
			if n, err := strconv.Atoi(v); err == nil {
				return n
			}
		}
	}
	return fallback
}
