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
	var path string
	var f *os.File
	root.PersistentFlags().StringVar(&path, "cpuprofile", "", "write a Go CPU profile of the command to this file")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
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
		if f == nil {
			return nil
		}
		pprof.StopCPUProfile()
		return f.Close()
	}
}
