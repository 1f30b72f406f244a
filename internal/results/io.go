package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Write stores r as indented JSON at path atomically (temp file + rename),
// creating parent directories.
func Write(path string, r *Run) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	return nil
}

// Read loads a result file and checks its format version.
func Read(path string) (*Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read result: %w", err)
	}
	r, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("read result %s: %w", path, err)
	}
	return r, nil
}

// Parse decodes one result document and checks its format version.
func Parse(b []byte) (*Run, error) {
	var r Run
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	if r.FormatVersion < 1 || r.FormatVersion > FormatVersion {
		return nil, fmt.Errorf("unsupported format_version %d (this benchpress reads 1..%d)", r.FormatVersion, FormatVersion)
	}
	return &r, nil
}
