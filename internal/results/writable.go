package results

import (
	"fmt"
	"os"
	"path/filepath"
)

// WritableFile reports whether path can be created or replaced: it is not
// a directory and its directory accepts a new file.
func WritableFile(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("is a directory")
	}
	return WritableDir(filepath.Dir(path))
}

// WritableDir creates dir when missing and tries a file in it.
func WritableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create the directory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".benchpress-write-check-*")
	if err != nil {
		return fmt.Errorf("cannot write there: %w", err)
	}
	name := f.Name()
	_ = f.Close()
	return os.Remove(name)
}
