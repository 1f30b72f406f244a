package runner

import (
	"runtime"
	"sync"
)

// terminalGate starts every terminal's goroutine, and an OS thread for
// each, before the run's clock starts, and holds them until open.
//
// A terminal that waits for its replies in blocking reads (target's
// blocking socket mode) holds an OS thread while it waits, so a run of 128
// such terminals needs about 128 threads, which the runtime creates when
// the terminals first block: started with the clock, the process went from
// 46 to 134 threads in the run's first 0.3 s, on the cores the server uses
// too. Here each goroutine first parks locked to a thread of its own (the
// runtime creates it then, before the clock), and then lets it go to the
// runtime's idle threads, from which the blocking terminals take theirs
// once the run starts. With Config.OwnThreads the terminal keeps it.
// sysbench likewise creates its threads and connects them before a barrier
// after which its clock starts. Opening the gate still wakes the terminals
// one thread wake-up after another (at 128 terminals goroutines waited up
// to 87 ms, as long as they had waited for the threads' creation:
// docs/benchmarks.md, "2026-11-28 (12:10)").
type terminalGate struct {
	threads, ready sync.WaitGroup
	threaded, gate chan struct{}
	loops          []func() // set before open; nil entries end at once (abort)
}

// startTerminals runs n goroutines that each wait at the gate and then run
// their loop (the one open hands them); wg counts them until they end.
// With threads it returns once all n are waiting at the gate with a thread
// made for each, which ownThreads terminals keep (locked).
func startTerminals(n int, threads, ownThreads bool, wg *sync.WaitGroup) *terminalGate {
	g := &terminalGate{threaded: make(chan struct{}), gate: make(chan struct{}), loops: make([]func(), n)}
	g.threads.Add(n)
	g.ready.Add(n)
	wg.Add(n)
	for i := range n {
		go func() {
			defer wg.Done()
			if threads {
				runtime.LockOSThread()
			}
			g.threads.Done()
			<-g.threaded
			if threads && !ownThreads {
				runtime.UnlockOSThread() // the thread stays, idle, for the runtime to hand out
			}
			g.ready.Done()
			<-g.gate
			if f := g.loops[i]; f != nil {
				f()
			}
			// An OwnThreads terminal's thread ends with the goroutine.
		}()
	}
	g.threads.Wait()
	close(g.threaded)
	g.ready.Wait()
	return g
}

// open lets every terminal run loops[i]; open(nil) ends them instead.
func (g *terminalGate) open(loops []func()) {
	if loops != nil {
		copy(g.loops, loops)
	}
	close(g.gate)
}
