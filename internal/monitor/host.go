package monitor

import (
	"context"
	"os"
	"runtime"
	"strings"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/mem"
)

// Host describes a machine for the environment record of a run or sweep.
type Host struct {
	Hostname string `json:"hostname"`
	OS       string `json:"os"`                 // "linux"
	Platform string `json:"platform,omitempty"` // distribution and version, "debian 12.7"
	Kernel   string `json:"kernel,omitempty"`   // "6.1.0-25-amd64"
	Arch     string `json:"arch"`               // "x86_64" (uname -m), else GOARCH
	CPUModel string `json:"cpu_model,omitempty"`
	// CPUs is the number of logical CPUs; CPUCores the physical cores when known.
	CPUs          int    `json:"cpus"`
	CPUCores      int    `json:"cpu_cores,omitempty"`
	MemTotalBytes uint64 `json:"mem_total_bytes,omitempty"`
}

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
