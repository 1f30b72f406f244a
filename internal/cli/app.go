// Package cli turns command lines and plan files into typed configurations and
// runs them. Only cmd/benchpress touches the process (os.Args, environment,
// stdio, exit codes); everything here goes through App.
package cli

import (
	"io"
)

// App is the process edge handed in by cmd/benchpress.
type App struct {
	Out     io.Writer // results, summaries
	Err     io.Writer // progress, warnings, live lines
	Getenv  func(string) string
	IsTTY   bool // Err is a terminal (progress bars, ETA)
	Version string
	// Interrupt is closed (or its context cancelled) on SIGINT/SIGTERM; the
	// root command's context carries it.
}
