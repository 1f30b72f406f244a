package partition

import (
	"fmt"
	"os/exec"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// startPinned starts cmd with its CPU affinity set to cpus (nil: not
// pinned). The child inherits the affinity of the thread that forks it, so
// this thread is locked, pinned, used to start the child and restored: the
// child's every thread is pinned from its first instruction, as under
// taskset.
func startPinned(cmd *exec.Cmd, cpus []int) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return fmt.Errorf("read CPU affinity: %w", err)
	}
	for _, c := range cpus {
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("pin to CPUs %v: %w", cpus, err)
	}
	err := cmd.Start()
	if rerr := unix.SchedSetaffinity(0, &old); rerr != nil && err == nil {
		err = fmt.Errorf("restore CPU affinity: %w", rerr)
	}
	return err
}

// ownProcessGroup has cmd start in a process group of its own (its pid), so
// that signals sent to the terminal's foreground group (Ctrl-C) do not
// reach it; and has the kernel send it SIGTERM when the parent dies (a
// lost SSH session's SIGHUP, kill -9, the OOM killer), so that no child
// goes on loading the database for a run nobody will merge. (The signal
// follows the forking thread, which Go does not end while the process
// lives: startPinned unlocks it.)
func ownProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
}
