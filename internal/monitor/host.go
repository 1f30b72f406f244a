package monitor

import (
	"benchpress/internal/results"
	"context"
	"os"
	"runtime"
	"strings"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/mem"
)

// Host describes a machine for the environment record of a run or sweep.
type Host = results.Host

// HostInfo describes the local machine. It never fails: a figure that cannot
// be read is left empty, and hostname, OS, architecture and CPU count fall
// back to the Go runtime's view.
func HostInfo() Host {
	ctx := context.Background()
	h := Host{OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU()}
	h.Hostname, _ = os.Hostname()
	if info, err := host.InfoWithContext(ctx); err == nil {
		if info.Hostname != "" {
			h.Hostname = info.Hostname
		}
		if info.OS != "" {
			h.OS = info.OS
		}
		if info.KernelArch != "" {
			h.Arch = info.KernelArch
		}
		h.Kernel = info.KernelVersion
		h.Platform = strings.TrimSpace(info.Platform + " " + info.PlatformVersion)
	}
	if infos, err := cpu.InfoWithContext(ctx); err == nil && len(infos) > 0 {
		h.CPUModel = strings.TrimSpace(infos[0].ModelName)
	}
	if n, err := cpu.CountsWithContext(ctx, true); err == nil && n > 0 {
		h.CPUs = n
	}
	if n, err := cpu.CountsWithContext(ctx, false); err == nil && n > 0 {
		h.CPUCores = n
	}
	if vm, err := mem.VirtualMemoryWithContext(ctx); err == nil {
		h.MemTotalBytes = vm.Total
	}
	return h
}
