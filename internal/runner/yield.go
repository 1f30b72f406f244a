package runner

import (
	"runtime"
	_ "unsafe" // go:linkname
)

// goyield is runtime.goyield: the calling goroutine goes to the tail of
// its own P's local run queue and the thread runs the scheduler once,
// which finds it there again. Unlike runtime.Gosched (the global run
// queue, then a wake-up for a spinning thread whenever a P is idle) it
// wakes no other thread. The runtime keeps the symbol for the packages
// that pull it by linkname (gVisor; go.dev/issue/67401: "Do not remove or
// change the type signature").
//
//go:linkname goyield runtime.goyield
func goyield()

// yield passes the terminal through Go's scheduler between two
// transactions (Config.YieldEvery), so that the runtime's preemption of a
// goroutine that has not been through it for 10 ms, which a terminal
// blocked in raw reads never is by itself, does not fall inside a
// transaction. How it yields depends on the run:
//   - OwnThreads: the terminal unlocks its thread, yields in place and
//     locks the thread it then runs on (almost always the same: only a
//     spinning thread that steals it in between moves it). A locked
//     goroutine's own yield or preemption is a hand-off through a second
//     thread (two futex wake-ups, each waiting for a CPU that the server
//     needs).
//   - LocalYield: in place (goyield): the run has spare Ps, and Gosched
//     would wake a spinning thread for one at every yield.
//   - otherwise runtime.Gosched: the terminals hold every P
//     (target.SharedYield), and their yields are when the runner's own
//     goroutines, queued globally, get to run.
//
// Measured in docs/benchmarks.md, "2026-11-27 (08:00)".
func (w *worker) yield() {
	switch {
	case w.cfg.OwnThreads:
		runtime.UnlockOSThread()
		goyield()
		runtime.LockOSThread()
	case w.cfg.LocalYield:
		goyield()
	default:
		runtime.Gosched()
	}
}
