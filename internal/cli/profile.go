package cli

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profiler holds the hidden --cpuprofile and --memprofile flags: Go
// profiles of a command, for work on the driver's own CPU and memory use.
// The CPU profile is written however the command ends (a failed check, a
// degraded run and an error included).
type profiler struct {
	cpuPath, memPath string
	f                *os.File
}

// addProfileFlags adds the flags to root and wraps every command so that
// the CPU profile starts before it and stops after it.
func addProfileFlags(root *cobra.Command, p *profiler) {
	root.PersistentFlags().StringVar(&p.cpuPath, "cpuprofile", "", "write a Go CPU profile of the command to this file")
	root.PersistentFlags().StringVar(&p.memPath, "memprofile", "", "write a Go heap profile (in use at the end of the measurement) to this file")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
	_ = root.PersistentFlags().MarkHidden("memprofile")
	wrapRunE(root, p)
}

func wrapRunE(cmd *cobra.Command, p *profiler) {
	if run := cmd.RunE; run != nil {
		cmd.RunE = func(c *cobra.Command, args []string) error {
			if err := p.start(); err != nil {
				return err
			}
			defer p.stop()
			return run(c, args)
		}
	}
	for _, sub := range cmd.Commands() {
		wrapRunE(sub, p)
	}
}

func (p *profiler) start() error {
	if p.cpuPath == "" || p.f != nil {
		return nil
	}
	f, err := os.Create(p.cpuPath)
	if err != nil {
		return usagef("--cpuprofile: %v", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	p.f = f
	return nil
}

func (p *profiler) stop() {
	if p.f == nil {
		return
	}
	pprof.StopCPUProfile()
	_ = p.f.Close()
	p.f = nil
}

// writeHeap writes the heap profile when --memprofile was given; the run
// calls it at the end of the measurement, while terminals still exist.
func (p *profiler) writeHeap() {
	if p.memPath == "" {
		return
	}
	if f, err := os.Create(p.memPath); err == nil {
		_ = pprof.Lookup("heap").WriteTo(f, 0)
		_ = f.Close()
	}
}
