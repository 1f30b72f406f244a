//go:build !linux

package monitor

import (
	"errors"
	"io"
	"os"
)

// readProcFile reads the file at path (NUL-terminated) into buf, growing
// it when the file is longer, and returns the contents.
func readProcFile(path []byte, buf *[]byte) ([]byte, error) {
	f, err := os.Open(string(path[:len(path)-1]))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := *buf
	n := 0
	for {
		m, err := f.Read(b[n:])
		n += m
		if err == io.EOF || (err == nil && m == 0) {
			*buf = b
			return b[:n], nil
		}
		if err != nil {
			return nil, err
		}
		if n == len(b) {
			b = append(b, make([]byte, len(b))...)
		}
	}
}

var errNoKeep = errors.New("monitor: descriptors are kept on Linux only")

// openProcFile, preadProcFile, closeProcFile: descriptors are not kept
// here; every reading opens the file by path (readProcFile).
func openProcFile([]byte) (int, error)           { return -1, errNoKeep }
func preadProcFile(int, *[]byte) ([]byte, error) { return nil, errNoKeep }
func closeProcFile(int)                          {}
func procFDBudget() int                          { return 0 }
