package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// EnvironmentFile is the name of the environment record in a sweep
// directory. ReadEnvironment ignores fields it does not know, so records of
// other versions still render.
const EnvironmentFile = "environment.json"

// Environment is what a sweep ran on: the client host and every target.
type Environment struct {
	Benchpress string                `json:"benchpress_version"`
	GoVersion  string                `json:"go_version"`
	Plan       string                `json:"plan"`
	Client     Host                  `json:"client"`
	Targets    map[string]*TargetEnv `json:"targets"`
}

// TargetEnv describes one target: its redacted URL, server version and key
// server settings (as the sweep's prober found them).
type TargetEnv struct {
	URL           string            `json:"url"`
	ServerVersion string            `json:"server_version,omitempty"`
	Settings      map[string]string `json:"settings,omitempty"`
	ProbeError    string            `json:"probe_error,omitempty"`
}

// WriteEnvironment stores env as DIR/environment.json (atomically).
func WriteEnvironment(dir string, env *Environment) error {
	b, err := json.MarshalIndent(env, "", "  ")
	if err != nil {
		return fmt.Errorf("write environment: %w", err)
	}
	path := filepath.Join(dir, EnvironmentFile)
	if err := os.WriteFile(path+".tmp", append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write environment: %w", err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return fmt.Errorf("write environment: %w", err)
	}
	return nil
}

// ReadEnvironment loads DIR/environment.json; a missing file returns (nil, nil).
func ReadEnvironment(dir string) (*Environment, error) {
	b, err := os.ReadFile(filepath.Join(dir, EnvironmentFile))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read environment: %w", err)
	}
	var env Environment
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, fmt.Errorf("read environment %s: %w", filepath.Join(dir, EnvironmentFile), err)
	}
	return &env, nil
}

// Host describes a machine (the load generator in environment.json).
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
