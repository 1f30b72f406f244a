package runner

import (
	"sync"
	"time"
)

// The drain: when the window closes, transactions in flight complete
// within a grace period (Run's finish).

// DrainGrace is how long transactions in flight when the window closes
// may take to complete (interruptGrace after an interrupt); a drain that
// takes longer than DrainNotice is announced (Config.OnPhase "drain").
const (
	DrainGrace     = 30 * time.Second
	interruptGrace = 5 * time.Second
	DrainNotice    = 2 * time.Second
)

// waitTimeout waits for wg at most d; it reports whether wg finished.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}
