package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCPUProfileOnFailure: --cpuprofile writes a profile when the command
// succeeds and when it fails (here: a consistency check on a database that
// holds no TPC-C tables), not only on success.
func TestCPUProfileOnFailure(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		fail bool
	}{
		{"success", []string{"version"}, false},
		{"failure", []string{"tpcc", "check", "--target", "sqlite://" + filepath.Join(dir, "empty.db")}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prof := filepath.Join(dir, tt.name+".prof")
			_, stderr, code := runCLI(t, nil, append(tt.args, "--cpuprofile", prof)...)
			if (code != 0) != tt.fail {
				t.Fatalf("exit %d, want failure %v: %s", code, tt.fail, stderr)
			}
			st, err := os.Stat(prof)
			if err != nil || st.Size() == 0 {
				t.Fatalf("profile %s: %v (size %d)", prof, err, sizeOf(st))
			}
		})
	}
}

func sizeOf(st os.FileInfo) int64 {
	if st == nil {
		return -1
	}
	return st.Size()
}
