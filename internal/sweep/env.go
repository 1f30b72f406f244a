package sweep

import (
	"context"
	"runtime"

	"benchpress/internal/monitor"
	"benchpress/internal/results"
)

// The environment record lives in package results (reports read it
// without linking sweeps); these names keep sweep's API.
type (
	// Environment is what a sweep ran on: the client host and every target.
	Environment = results.Environment
	// TargetEnv describes one target.
	TargetEnv = results.TargetEnv
)

// EnvironmentFile is the name of the environment record in a sweep directory.
const EnvironmentFile = results.EnvironmentFile

// WriteEnvironment stores env as DIR/environment.json (atomically).
func WriteEnvironment(dir string, env *Environment) error { return results.WriteEnvironment(dir, env) }

// ReadEnvironment loads DIR/environment.json; a missing file returns (nil, nil).
func ReadEnvironment(dir string) (*Environment, error) { return results.ReadEnvironment(dir) }

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
