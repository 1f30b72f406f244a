//go:build !linux

package partition

import (
	"errors"
	"os/exec"
)

// startPinned starts cmd; pinning is only implemented on Linux.
func startPinned(cmd *exec.Cmd, cpus []int) error {
	if len(cpus) > 0 {
		return errors.New("--cpuset is only supported on Linux")
	}
	return cmd.Start()
}

// ownProcessGroup leaves cmd in this process's group: process groups are
// only set on Linux (elsewhere a terminal's Ctrl-C reaches the children
// too).
func ownProcessGroup(cmd *exec.Cmd) {}
