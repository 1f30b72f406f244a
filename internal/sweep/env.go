package sweep

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"benchpress/internal/monitor"
)

// EnvironmentFile is the name of the environment record in a sweep directory.
const EnvironmentFile = "environment.json"

// Environment is what a sweep ran on: the client host and every target.
type Environment struct {
	Benchpress string                `json:"benchpress_version"`
	GoVersion  string                `json:"go_version"`
	Plan       string                `json:"plan"`
	Client     monitor.Host          `json:"client"`
	Targets    map[string]*TargetEnv `json:"targets"`
}

// TargetEnv describes one target: its redacted URL, server version and key
// server settings (from an EnvProber when the StepRunner is one).
type TargetEnv struct {
	URL           string            `json:"url"`
	ServerVersion string            `json:"server_version,omitempty"`
	Settings      map[string]string `json:"settings,omitempty"`
	ProbeError    string            `json:"probe_error,omitempty"`
}

// EnvProber is optionally implemented by a StepRunner to describe a target
// (server version under the key "version", plus key settings such as
// innodb_buffer_pool_size or shared_buffers). url may hold a password.
type EnvProber interface {
	ProbeTarget(ctx context.Context, url string) (map[string]string, error)
}

// newEnvironment describes the client and, through prober when non-nil,
// each target of the plan (urls maps target name to the expanded URL).
func newEnvironment(ctx context.Context, p *Plan, version string, urls map[string]string, prober EnvProber) *Environment {
	env := &Environment{
		Benchpress: version, GoVersion: runtime.Version(), Plan: p.Name,
		Client: monitor.HostInfo(), Targets: map[string]*TargetEnv{},
	}
	for name, u := range urls {
		te := &TargetEnv{URL: Redact(u)}
		if prober != nil {
			settings, err := prober.ProbeTarget(ctx, u)
			if err != nil {
				te.ProbeError = err.Error()
			}
			if v, ok := settings["version"]; ok {
				te.ServerVersion = v
				delete(settings, "version")
			}
			if len(settings) > 0 {
				te.Settings = settings
			}
		}
		env.Targets[name] = te
	}
	return env
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
