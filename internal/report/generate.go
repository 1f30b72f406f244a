package report

import (
	"fmt"
	"os"
	"path/filepath"
)

// Generate renders the results at path (sweep directory, directory of run
// JSONs, or one run JSON) and writes report.md, report.html and
// charts/*.svg into that directory (the file's directory for a single
// run). It returns the written paths, report.md first.
func Generate(path string) ([]string, error) {
	ds, err := Load(path)
	if err != nil {
		return nil, err
	}
	out := path
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		out = filepath.Dir(path)
	}
	return Write(ds, out)
}

// Write renders ds into dir: report.md, report.html, charts/<name>.svg.
func Write(ds *Dataset, dir string) ([]string, error) {
	d, err := Build(ds)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	md := filepath.Join(dir, "report.md")
	html := filepath.Join(dir, "report.html")
	files := []string{md, html}
	if err := writeFile(md, d.Markdown()); err != nil {
		return nil, err
	}
	if err := writeFile(html, d.HTML()); err != nil {
		return nil, err
	}
	for _, b := range d.Blocks {
		if c, ok := b.(Chart); ok {
			p := filepath.Join(dir, "charts", c.Name+".svg")
			if err := writeFile(p, c.SVG); err != nil {
				return nil, err
			}
			files = append(files, p)
		}
	}
	return files, nil
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
