package cli

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// addProfileFlag adds the hidden --cpuprofile FILE flag to root: a Go CPU
// profile of the whole command, for work on the driver's own CPU use.
func addProfileFlag(root *cobra.Command) {
	var path, memPath string
	var f *os.File
	root.PersistentFlags().StringVar(&path, "cpuprofile", "", "write a Go CPU profile of the command to this file")
	root.PersistentFlags().StringVar(&memPath, "memprofile", "", "write a Go heap profile (in use at the end of the measurement) to this file")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
	_ = root.PersistentFlags().MarkHidden("memprofile")
	heapProfilePath = &memPath
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if path == "" {
			return nil
		}
		var err error
		if f, err = os.Create(path); err != nil {
			return usagef("--cpuprofile: %v", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		return nil
	}
	root.PersistentPostRunE = func(*cobra.Command, []string) error {
		heapProfilePath = nil
		if f == nil {
			return nil
		}
		pprof.StopCPUProfile()
		return f.Close()
	}
}

// heapProfilePath is set while a command runs with --memprofile.
var heapProfilePath *string

// writeHeapProfile writes the heap profile when --memprofile was given; the
// run calls it at the end of the measurement, while terminals still exist.
func writeHeapProfile() {
	if heapProfilePath == nil || *heapProfilePath == "" {
		return
	}
	if f, err := os.Create(*heapProfilePath); err == nil {
		_ = pprof.Lookup("heap").WriteTo(f, 0)
		_ = f.Close()
	}
}
